import Foundation
import Testing

@testable import FlowrunLSP

/// The JSON-RPC messages' text: written by `serialized`, read back by Foundation's decoder.
@Suite struct JSONValueTests {
  @Test func serializedTextReadsBackToTheSameValue() throws {
    let value: JSONValue = [
      "text": "line\n\t\"quoted\" \\ 登录 😀 \u{1}", "n": 42, "x": .double(1.5), "whole": .double(3), "ok": true,
      "none": nil, "list": [1, "two", [:]], "nested": ["b": 1, "a": [true, false]],
    ]
    let text = value.serialized
    #expect(
      String(decoding: text, as: UTF8.self).hasPrefix(#"{"list":[1,"two",{}],"n":42,"nested":{"a":[true,false],"b":1}"#)
    )
    let decoded = try JSONDecoder().decode(JSONValue.self, from: Data(text))
    #expect(decoded["text"] == value["text"])
    #expect(decoded["n"] == 42 && decoded["x"] == .double(1.5) && decoded["whole"]?.intValue == 3)
    #expect(decoded["none"] == .null && decoded["nested"]?["a"] == [true, false])
  }
}
