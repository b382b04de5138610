import Foundation

// usage: CombineDiff GRAPHS.json
// Reads a JSON array of graphs and prints a JSON array with, per graph,
// {"events": [[frame, "N", value] | [frame, "C"] | [frame, "E", error]], "afterTerminal": n}
// (n events that came after the first terminal event and were not recorded) or {"error": message}.

func eventJSON(_ timed: Timed) -> [Any] {
  switch timed.event {
  case .next(let value): [timed.frame, "N", value]
  case .completed: [timed.frame, "C"]
  case .failed(let error): [timed.frame, "E", error]
  }
}

func runAll(_ path: String) throws -> Data {
  let data = try Data(contentsOf: URL(fileURLWithPath: path))
  guard let graphs = try JSONSerialization.jsonObject(with: data) as? [[String: Any]] else {
    throw GraphError(description: "\(path): expected a JSON array of graphs")
  }
  var results: [Any] = []
  for graph in graphs {
    do {
      let run = GraphRun()
      let recorder = try run.run(graph)
      var subscriptions: [String: Any] = [:]
      for (name, log) in run.logs {
        subscriptions[name] = log.entries.map { $0.map { $0 as Any? ?? NSNull() } }
      }
      results.append([
        "events": recorder.events.map(eventJSON), "afterTerminal": recorder.afterTerminal,
        "subscriptions": subscriptions, "lists": run.lists,
      ])
    } catch {
      results.append(["error": "\(error)"])
    }
  }
  return try JSONSerialization.data(withJSONObject: results)
}

let arguments = CommandLine.arguments
guard arguments.count == 2 else {
  FileHandle.standardError.write(Data("usage: CombineDiff GRAPHS.json\n".utf8))
  exit(2)
}
do {
  FileHandle.standardOutput.write(try runAll(arguments[1]))
  FileHandle.standardOutput.write(Data("\n".utf8))
} catch {
  FileHandle.standardError.write(Data("CombineDiff: \(error)\n".utf8))
  exit(2)
}
