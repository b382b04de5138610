"""Reads scenario YAML the way flowrun does (scenario-format.md), for validating against the schema.

PyYAML implements YAML 1.1, where `on`, `off`, `yes`, `no`, `y` and `n` are booleans, `1:30` is a
sexagesimal integer and `2024-01-01` a date. flowrun types plain scalars by the YAML 1.2 core
schema: only `true`/`false` (any letter case) are booleans; `null`, `~` and the empty scalar are
null; decimal, `0x` and `0o` integers and decimals (`.inf`, `.nan`) are numbers; everything else
is a string. `!cold` / `!hot` legend values (signals written as marbles) are kept as their marble
strings, and other local tags do not change how a scalar resolves.
"""

import math
import re

import yaml


class Yaml12Loader(yaml.SafeLoader):
    """A SafeLoader with the YAML 1.2 core schema's implicit types and nothing else."""


Yaml12Loader.yaml_implicit_resolvers = {}

_BOOL = re.compile(r"^(?:[Tt][Rr][Uu][Ee]|[Ff][Aa][Ll][Ss][Ee])$")
_NULL = re.compile(r"^(?:~|null|Null|NULL|)$")
_INT = re.compile(r"^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$")
_FLOAT = re.compile(
    r"^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?"
    r"|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$"
)

Yaml12Loader.add_implicit_resolver("tag:yaml.org,2002:bool", _BOOL, list("tTfF"))
Yaml12Loader.add_implicit_resolver("tag:yaml.org,2002:null", _NULL, ["~", "n", "N", ""])
Yaml12Loader.add_implicit_resolver("tag:yaml.org,2002:int", _INT, list("-+0123456789"))
Yaml12Loader.add_implicit_resolver("tag:yaml.org,2002:float", _FLOAT, list("-+.0123456789"))


def _bool(loader, node):
    return loader.construct_scalar(node).lower() == "true"


def _int(loader, node):
    text = loader.construct_scalar(node)
    if text.startswith("0x"):
        return int(text[2:], 16)
    if text.startswith("0o"):
        return int(text[2:], 8)
    return int(text, 10)


def _float(loader, node):
    text = loader.construct_scalar(node).lower()
    if text.endswith(".inf"):
        return -math.inf if text.startswith("-") else math.inf
    if text == ".nan":
        return math.nan
    return float(text)


def _local_tag(loader, suffix, node):
    """`!cold "--a|"`, `!hot "-x"` and other local tags: the value as if untagged (a marble stays a string)."""
    if isinstance(node, yaml.ScalarNode):
        if suffix in ("cold", "hot"):
            return loader.construct_scalar(node)
        text = loader.construct_scalar(node)
        if node.style is None:
            tag = loader.resolve(yaml.ScalarNode, text, (True, False))
            return loader.yaml_constructors[tag](loader, yaml.ScalarNode(tag, text))
        return text
    if isinstance(node, yaml.SequenceNode):
        return loader.construct_sequence(node, deep=True)
    return loader.construct_mapping(node, deep=True)


Yaml12Loader.add_constructor("tag:yaml.org,2002:bool", _bool)
Yaml12Loader.add_constructor("tag:yaml.org,2002:int", _int)
Yaml12Loader.add_constructor("tag:yaml.org,2002:float", _float)
Yaml12Loader.add_multi_constructor("!", _local_tag)


def load_documents(text):
    """Every document of a scenario file, as Python values (None for an empty document)."""
    return list(yaml.load_all(text, Loader=Yaml12Loader))
