# SPDX-License-Identifier: MIT
"""Reads the API description in scripts/api/ into plain Python objects.

The syntax is documented in scripts/api/README.md. Everything the generators know about the
API comes from here, so a fact is written once and every output agrees with it.
"""

import glob
import os
import re
from dataclasses import dataclass, field
from typing import List, Optional


@dataclass
class Decl:
    """One struct member, callback parameter or function parameter."""
    tags: List[str]
    text: str          # the C declaration as written, e.g. "const char *name"
    name: str
    ctype: str         # the declaration without its name, e.g. "const char *"
    array: str = ""    # "[3]" for fixed-size arrays

    def has(self, tag):
        return tag in self.tags

    @property
    def optional(self):
        return "opt" in self.tags

    @property
    def range(self):
        """(first, count expression) for range(a,b) tags, else None."""
        for t in self.tags:
            m = re.fullmatch(r"range\(([^,]+),(.+)\)", t)
            if m:
                return m.group(1), m.group(2)
        return None


@dataclass
class Enumerator:
    name: str          # full name, e.g. UR_DEVICE_INFO_TYPE
    value: str         # as written: "0", "0x2000", "bit(3)", "UR_MAKE_VERSION(0,12)"
    info_type: str = ""          # the type an info query returns, e.g. "ur_bool_t", "char[]"
    info_tags: List[str] = field(default_factory=list)
    deprecated: bool = False

    @property
    def c_value(self):
        m = re.fullmatch(r"bit\((\d+)\)", self.value)
        return "UR_BIT(%s)" % m.group(1) if m else self.value.replace(",", ", ")


@dataclass
class Item:
    kind: str          # handle alias macro const enum flags struct union callback fn
    name: str
    section: str
    doc: str = ""
    # kind-specific fields
    ctype: str = ""                  # alias target, callback return type
    args: str = ""                   # macro arguments
    body: str = ""                   # macro body, const value
    prefix: str = ""                 # enum/flags enumerator prefix
    flags_type: str = ""             # flags: the uint32_t typedef name
    mask: str = ""                   # flags: the mask of reserved bits
    enumerators: List[Enumerator] = field(default_factory=list)
    members: List[Decl] = field(default_factory=list)      # struct/union/callback/fn
    checks: List[tuple] = field(default_factory=list)      # fn: (result, expression)
    table: str = ""                  # fn: ur_dditable_t member, "" for loader-only functions
    slot: str = ""                   # fn: slot name without "pfn"
    route: str = ""                  # fn: argument whose first word is the adapter's table

    @property
    def params(self):
        return self.members

    def param(self, name):
        for p in self.members:
            if p.name == name:
                return p
        return None


@dataclass
class Table:
    member: str        # e.g. "Enqueue"
    struct: str        # e.g. "ur_enqueue_dditable_t"
    getter: str        # e.g. "urGetEnqueueProcAddrTable"
    slots: List[str]   # slot names in ABI order
    functions: List[Item] = field(default_factory=list)

    @property
    def experimental(self):
        return self.struct.endswith("_exp_dditable_t")


@dataclass
class Spec:
    items: List[Item]
    tables: List[Table]
    getter_order: List[str]
    sections: List[tuple]            # (section name, title)
    implemented: dict                # adapter name -> set of function names

    def functions(self):
        return [i for i in self.items if i.kind == "fn"]

    def function(self, name):
        for i in self.items:
            if i.kind == "fn" and i.name == name:
                return i
        raise KeyError(name)

    def enum_of_enumerator(self):
        """Maps every enumerator name to the enum or flags item declaring it."""
        out = {}
        for i in self.items:
            for e in i.enumerators:
                out[e.name] = i
        return out

    def find(self, kind, name):
        for i in self.items:
            if i.kind == kind and i.name == name:
                return i
        return None


DECL_RE = re.compile(r"^(.*?)(\w+)\s*(\[\w*\])?$")


def parse_decl(tags, text):
    m = DECL_RE.match(text.strip())
    if not m:
        raise ValueError("cannot read declaration: %r" % text)
    return Decl(tags=tags, text=text.strip(), name=m.group(2), ctype=m.group(1).strip(),
                array=m.group(3) or "")


def snake(name):
    """urEnqueueUSMFill2D -> enqueue_usm_fill_2d (used for urc's internal function names)."""
    if name.startswith("ur"):
        name = name[2:]
    parts = re.findall(r"[A-Z]+(?=[A-Z][a-z]|\d|$)|[A-Z]?[a-z]+|\d+[A-Z]?", name)
    return "_".join(p.lower() for p in parts)


def pfn_type(fn):
    return "ur_pfn%s_t" % fn.name[2:]


class ParseError(Exception):
    pass


def _read_tables(path):
    tables, order = [], []
    cur = None
    for lineno, raw in enumerate(open(path), 1):
        line = raw.rstrip("\n")
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        words = line.split()
        if words[0] == "table":
            cur = Table(member=words[1], struct=words[2], getter=words[3], slots=[])
            tables.append(cur)
        elif words[0] == "getter-order":
            order += words[1:]
        elif line.startswith(" ") and cur is not None:
            cur.slots += words
        else:
            raise ParseError("%s:%d: unexpected line" % (path, lineno))
    return tables, order


def _read_api_file(path, section, items):
    cur = None
    for lineno, raw in enumerate(open(path), 1):
        line = raw.rstrip("\n")
        where = "%s:%d" % (os.path.basename(path), lineno)
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        if not line.startswith(" "):
            cur = _read_head(line, section, where)
            items.append(cur)
            continue
        if cur is None:
            raise ParseError("%s: indented line outside a declaration" % where)
        body = line.strip()
        if body.startswith("doc:"):
            cur.doc = (cur.doc + " " + body[4:].strip()).strip()
        elif body.startswith("!"):
            _read_check(cur, body[1:].strip(), where)
        elif cur.kind in ("enum", "flags"):
            cur.enumerators.append(_read_enumerator(cur, body, where))
        elif "|" in body:
            tags, text = body.split("|", 1)
            cur.members.append(parse_decl(tags.split(), text))
        else:
            raise ParseError("%s: cannot read %r" % (where, body))


def _read_head(line, section, where):
    words = line.split()
    kind = words[0]
    opts = dict(w.split("=", 1) for w in words if "=" in w and not w.startswith("="))
    if kind == "handle":
        return Item("handle", words[1], section)
    if kind == "alias":
        name, target = line[len("alias "):].split("=", 1)
        return Item("alias", name.strip(), section, ctype=target.strip())
    if kind == "const":
        name, value = line[len("const "):].split("=", 1)
        return Item("const", name.strip(), section, body=value.strip())
    if kind == "macro":
        m = re.match(r"macro (\w+)\((.*?)\) = (.*)$", line)
        return Item("macro", m.group(1), section, args=m.group(2), body=m.group(3))
    if kind == "enum":
        name = words[1]
        return Item("enum", name, section, prefix=opts.get("prefix", name[:-2].upper() + "_"))
    if kind == "flags":
        bits = words[2]
        return Item("flags", bits, section, flags_type=words[1], mask=opts["mask"],
                    prefix=opts.get("prefix", bits[:-2].upper() + "_"))
    if kind in ("struct", "union"):
        return Item(kind, words[1], section)
    if kind == "callback":
        m = re.match(r"callback (\w+) -> (.+)$", line)
        return Item("callback", m.group(1), section, ctype=m.group(2).strip())
    if kind == "fn":
        item = Item("fn", words[1], section)
        if words[2] != "loader":
            item.table, item.slot = words[2].split(".")
            item.route = opts["route"]
        return item
    raise ParseError("%s: unknown declaration %r" % (where, kind))


def _read_enumerator(item, body, where):
    m = re.match(r'(\w+) = (\S+)(?:\s+: ("[^"]+"|\S+)((?:\s+[\w-]+)*))?(\s+deprecated)?$', body)
    if not m:
        m2 = re.match(r"(\w+) = (\S+)\s+deprecated$", body)
        if not m2:
            raise ParseError("%s: cannot read enumerator %r" % (where, body))
        return Enumerator(item.prefix + m2.group(1), m2.group(2), deprecated=True)
    return Enumerator(item.prefix + m.group(1), m.group(2), info_type=(m.group(3) or "").strip('"'),
                      info_tags=(m.group(4) or "").split(), deprecated=bool(m.group(5)))


def _read_check(item, body, where):
    m = re.match(r"(NULL_HANDLE|NULL_POINTER) (.+)$", body)
    if m:
        result = "INVALID_" + m.group(1)
        for name in m.group(2).split():
            item.checks.append((result, "NULL == %s" % name))
        return
    m = re.match(r"([A-Z0-9_]+): (.+)$", body)
    if not m:
        raise ParseError("%s: cannot read check %r" % (where, body))
    item.checks.append((m.group(1), m.group(2).replace("::", "")))


def load(root):
    api = os.path.join(root, "scripts", "api")
    tables, order = _read_tables(os.path.join(api, "00-tables.api"))
    items, sections = [], []
    for path in sorted(glob.glob(os.path.join(api, "[0-9][0-9]-*.api"))):
        base = os.path.basename(path)
        if base == "00-tables.api":
            continue
        section = re.sub(r"^\d\d-", "", base[:-4])
        sections.append((section, _section_title(path)))
        _read_api_file(path, section, items)
    implemented = {}
    for path in sorted(glob.glob(os.path.join(api, "implemented", "*.txt"))):
        names = set()
        for raw in open(path):
            word = raw.split("#", 1)[0].strip()
            if word:
                names.add(word)
        implemented[os.path.basename(path)[:-4]] = names
    spec = Spec(items, tables, order, sections, implemented)
    _link(spec)
    return spec


def _section_title(path):
    for raw in open(path):
        if raw.startswith("# SPDX-License-Identifier"):
            continue
        if raw.startswith("#"):
            return raw.lstrip("#").strip()
        if raw.strip():
            break
    return ""


def _link(spec):
    """Attaches functions to table slots and checks that the description is complete."""
    by_slot = {}
    for fn in spec.functions():
        if fn.table:
            by_slot[(fn.table, fn.slot)] = fn
    for t in spec.tables:
        for s in t.slots:
            fn = by_slot.pop((t.member, s), None)
            if fn is None:
                raise ParseError("table %s slot %s has no fn declaration" % (t.member, s))
            t.functions.append(fn)
    if by_slot:
        raise ParseError("fn declarations name unknown slots: %s" % sorted(by_slot))
    known = {fn.name for fn in spec.functions()}
    for adapter, names in spec.implemented.items():
        unknown = names - known
        if unknown:
            raise ParseError("implemented/%s.txt names unknown functions: %s" %
                             (adapter, sorted(unknown)))
