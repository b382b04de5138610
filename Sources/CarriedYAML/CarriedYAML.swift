// Links the libyaml that Yams carries (its C target `CYaml`, built from libyaml's sources) into
// `FlowrunYAML` under the `CarriedLibYAML` trait: where no system libyaml exists (an iOS
// Simulator test target cannot link a system library; a Mac without Homebrew has none), or when
// a Linux build asks for it. `FlowrunYAML` then imports `CYaml` instead of `CLibYAML`; the two
// are never linked into one binary (both define libyaml's `yaml_*` symbols).
internal import CYaml
