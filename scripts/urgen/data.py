# SPDX-License-Identifier: MIT
"""Writes data tables: enumerator names (for logs and urinfo), slot names, ABI values for the
ABI test, and the coverage table of docs/coverage.md."""

from .dispatch import HEADER, PRODUCT_ADAPTERS

NO_DEPRECATION_WARNINGS = ["#if defined(__GNUC__)",
                           "#pragma GCC diagnostic ignored \"-Wdeprecated-declarations\"",
                           "#endif"]


def enum_items(spec):
    return [i for i in spec.items if i.kind in ("enum", "flags")]


def enum_tables(spec):
    h = HEADER + ["// Names of every enumerator, and the value type of every info query, for",
                  "// messages and tools. Look-ups go through common/core/enum_names.h.",
                  "#ifndef URC_COMMON_GENERATED_UR_ENUM_TABLES_H",
                  "#define URC_COMMON_GENERATED_UR_ENUM_TABLES_H", "",
                  '#include "core/enum_names.h"', ""]
    c = HEADER + ['#include "ur_enum_tables.h"', '#include "ur_api.h"', ""] + NO_DEPRECATION_WARNINGS
    for item in enum_items(spec):
        h.append("extern const urc_enum_table_t urc_enum_%s;" % item.name)
        c.append("")
        c.append("static const urc_enum_entry_t entries_%s[] = {" % item.name)
        for e in item.enumerators:
            c.append('    {(int64_t)%s, "%s", "%s"},' % (e.name, e.name, e.info_type))
        c.append("};")
        c.append("const urc_enum_table_t urc_enum_%s = {\"%s\", entries_%s, %d};" %
                 (item.name, item.name, item.name, len(item.enumerators)))
    h += ["", "/// Names of the %d table slots, in ur_dditable_t order." %
          sum(len(t.functions) for t in spec.tables),
          "#define URC_SLOT_COUNT %d" % sum(len(t.functions) for t in spec.tables),
          "extern const char *const urc_slot_names[URC_SLOT_COUNT];", "",
          "#endif // URC_COMMON_GENERATED_UR_ENUM_TABLES_H", ""]
    c.append("")
    c.append("const char *const urc_slot_names[URC_SLOT_COUNT] = {")
    for t in spec.tables:
        for fn in t.functions:
            c.append('    "%s",' % fn.name)
    c.append("};")
    return "\n".join(h), "\n".join(c) + "\n"


def abi_values(spec):
    """Every size, alignment, offset and value the ABI test compares with UR's facts."""
    c = HEADER + ["// Sizes, offsets and values as urc's headers define them, labelled like the lines",
                  "// of test/abi/ur_abi_facts.txt.", "",
                  "#include <stddef.h>", '#include "ur_ddi.h"', '#include "abi_values.h"', ""]
    c += NO_DEPRECATION_WARNINGS
    c += ["", "const abi_value_t abi_values[] = {"]

    def add(label, expr):
        c.append('    {"%s", (long long)(%s)},' % (label, expr))

    add("sizeof:ur_dditable_t", "sizeof(ur_dditable_t)")
    for t in spec.tables:
        add("offsetof:ur_dditable_t.%s" % t.member, "offsetof(ur_dditable_t, %s)" % t.member)
        add("sizeof:%s" % t.struct, "sizeof(%s)" % t.struct)
        for fn in t.functions:
            add("offsetof:%s.pfn%s" % (t.struct, fn.slot), "offsetof(%s, pfn%s)" % (t.struct, fn.slot))
    for item in spec.items:
        if item.kind == "flags":
            add("sizeof:%s" % item.flags_type, "sizeof(%s)" % item.flags_type)
            mask = item.flags_type[:-2].upper() + "_MASK"
            add("value:%s" % mask, mask)
        if item.kind in ("enum", "flags"):
            for e in item.enumerators:
                add("value:%s" % e.name, e.name)
        elif item.kind in ("struct", "union"):
            add("sizeof:%s" % item.name, "sizeof(%s)" % item.name)
            add("alignof:%s" % item.name, "_Alignof(%s)" % item.name)
            for m in item.members:
                add("offsetof:%s.%s" % (item.name, m.name), "offsetof(%s, %s)" % (item.name, m.name))
        elif item.kind == "alias":
            add("sizeof:%s" % item.name, "sizeof(%s)" % item.name)
        elif item.kind == "const" and not item.body.startswith('"'):
            add("value:%s" % item.name, item.name)
    c += ["};", "", "const size_t abi_value_count = sizeof(abi_values) / sizeof(abi_values[0]);", ""]
    return "\n".join(c)


def coverage_markdown(spec):
    """docs/coverage.md's table: which adapter implements which entry point."""
    impl = spec.implemented
    out = ["| table | slots | " + " | ".join(PRODUCT_ADAPTERS) + " |",
           "|---|---|" + "---|" * len(PRODUCT_ADAPTERS)]
    for t in spec.tables:
        counts = [sum(1 for fn in t.functions if fn.name in impl.get(a, ())) for a in PRODUCT_ADAPTERS]
        out.append("| %s | %d | %s |" % (t.member, len(t.functions),
                                         " | ".join("%d" % n for n in counts)))
    out.append("")
    out.append("Per entry point (✓ implemented; — answers `UR_RESULT_ERROR_UNSUPPORTED_FEATURE` after")
    out.append("checking its arguments):")
    out.append("")
    for t in spec.tables:
        out.append("<details><summary>%s (%d)</summary>" % (t.member, len(t.functions)))
        out.append("")
        out.append("| function | " + " | ".join(PRODUCT_ADAPTERS) + " |")
        out.append("|---|" + "---|" * len(PRODUCT_ADAPTERS))
        for fn in t.functions:
            marks = ["✓" if fn.name in impl.get(a, ()) else "—" for a in PRODUCT_ADAPTERS]
            out.append("| `%s` | %s |" % (fn.name, " | ".join(marks)))
        out.append("")
        out.append("</details>")
        out.append("")
    loader_fns = [fn.name for fn in spec.functions() if not fn.table] + \
        [fn.name for fn in spec.functions() if fn.route == "none"]
    out.append("Implemented by the loader for every adapter: " +
               ", ".join("`%s`" % n for n in loader_fns) + ".")
    return "\n".join(out)
