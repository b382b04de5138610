import CLibYAML
