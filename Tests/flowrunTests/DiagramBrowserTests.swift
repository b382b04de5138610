import Foundation
import Testing

/// Headless Chromium, when installed (Debian package `chromium`).
enum Chromium {
  static let path: String? = {
    for name in ["chromium", "chromium-browser", "google-chrome", "google-chrome-stable"] {
      for directory in ["/usr/bin", "/usr/local/bin", "/snap/bin", "/opt/google/chrome"] {
        let candidate = directory + "/" + name
        if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
      }
    }
    return nil
  }()

  /// Takes a screenshot of `url` at the given size into `png`.
  static func screenshot(_ url: URL, to png: URL, width: Int, height: Int) throws -> Int32 {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: try #require(path))
    process.arguments = [
      "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run",
      "--window-size=\(width),\(height)", "--screenshot=\(png.path)", url.absoluteString,
    ]
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    return process.terminationStatus
  }
}

@Suite struct DiagramBrowserTests {
  /// Renders the SVG of the login command flow with headless Chromium and checks that the PNG
  /// shows a drawing: many pixels that are not background, in several colours.
  @Test(.enabled(if: Chromium.path != nil, "chromium is not installed (apt-get install -y chromium)"))
  func svgRendersToANonBlankPNG() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("flowrun-png-\(getpid())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let svg = directory.appendingPathComponent("login.svg")
    let output = try CLI.run(["diagram", "scenarios/login/command.yaml", "--format", "svg", "-o", svg.path])
    #expect(output.status == 0)
    let png = directory.appendingPathComponent("login.png")
    #expect(try Chromium.screenshot(svg, to: png, width: 800, height: 900) == 0)
    let data = try #require(FileManager.default.contents(atPath: png.path), "no screenshot written")
    #expect(Array(data.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
    let stats = try pixelStatistics(png)
    #expect(stats.inked > 0.02, "only \(stats.inked) of the pixels are drawn")
    #expect(stats.colours >= 6, "only \(stats.colours) colours")
  }

  /// Decodes the PNG with python3's zlib (no image library here): the share of pixels that are
  /// not white and the number of distinct colours. Without python3, a size check stands in.
  private func pixelStatistics(_ png: URL) throws -> (inked: Double, colours: Int) {
    let script = """
      import struct, sys, zlib
      data = open(sys.argv[1], 'rb').read()
      pos, idat, w, h, ctype = 8, b'', 0, 0, 0
      while pos < len(data):
          length, kind = struct.unpack('>I4s', data[pos:pos + 8])
          body = data[pos + 8:pos + 8 + length]
          if kind == b'IHDR': w, h, depth, ctype = struct.unpack('>IIBB', body[:10])
          if kind == b'IDAT': idat += body
          pos += 12 + length
      raw = zlib.decompress(idat)
      bpp = {2: 3, 6: 4}[ctype]
      stride = w * bpp
      prev = bytearray(stride)
      inked, colours, i = 0, set(), 0
      for y in range(h):
          f = raw[i]; line = bytearray(raw[i + 1:i + 1 + stride]); i += 1 + stride
          for x in range(stride):
              a = line[x - bpp] if x >= bpp else 0
              b = prev[x]; c = prev[x - bpp] if x >= bpp else 0
              if f == 1: line[x] = (line[x] + a) & 255
              elif f == 2: line[x] = (line[x] + b) & 255
              elif f == 3: line[x] = (line[x] + (a + b) // 2) & 255
              elif f == 4:
                  p = a + b - c; pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                  line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
          for x in range(0, stride, bpp):
              px = bytes(line[x:x + 3])
              colours.add(px)
              if px != b'\\xff\\xff\\xff': inked += 1
          prev = line
      print(inked / (w * h), len(colours))
      """
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", "-c", script, png.path]
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = FileHandle.nullDevice
    do {
      try process.run()
    } catch {
      let size = (try? FileManager.default.attributesOfItem(atPath: png.path)[.size] as? Int) ?? 0
      return (size > 20_000 ? 1 : 0, size > 20_000 ? 100 : 0)
    }
    let out = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    let parts = out.split(separator: " ").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
    guard process.terminationStatus == 0, parts.count == 2, let inked = Double(parts[0]), let colours = Int(parts[1])
    else {
      Issue.record("could not decode the PNG: \(out)")
      return (0, 0)
    }
    return (inked, colours)
  }
}
