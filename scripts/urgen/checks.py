# SPDX-License-Identifier: MIT
"""Writes common/generated/ur_checks.h: the argument checks of every entry point.

The loader runs them before it dispatches, and every urc adapter runs them before its own
code, so bad input gets the same documented result whichever way a call arrives (through
urc's loader, through UR's loader, or straight from a table).
"""

import re

from .spec import snake

HANDLE_ARRAY = re.compile(r"^const (ur_\w+_handle_t) \*$")
ENUM_RANGE = re.compile(r"(UR_\w+) < ([\w\->\.\[\]]+)")


def check_name(fn):
    return "urc_check_" + snake(fn.name)


def params_decl(fn):
    if not fn.params:
        return "void"
    return ", ".join(p.text for p in fn.params)


def args_list(fn):
    return ", ".join(p.name for p in fn.params)


def _rewrite(expr, owners):
    """Turns UR's `UR_LAST < x` range tests into 'x is not a declared enumerator'. Where the
    bound is not the enum's last enumerator (bindless images stop at UR_MEM_TYPE_IMAGE_CUBEMAP_EXP,
    before UR_MEM_TYPE_IMAGE_GATHER_EXP), the enumerators past it are refused as well, as UR's
    description says."""
    def repl(m):
        owner = owners.get(m.group(1))
        if owner is None:
            raise ValueError("unknown enumerator in check: " + m.group(1))
        values = [_numeric(e) for e in owner.enumerators]
        bound = next(_numeric(e) for e in owner.enumerators if e.name == m.group(1))
        if bound is not None and None not in values and bound < max(values):
            return "(!urc_is_%s(%s) || %s < %s)" % (owner.name, m.group(2), m.group(1),
                                                 m.group(2))
        return "!urc_is_%s(%s)" % (owner.name, m.group(2))
    return ENUM_RANGE.sub(repl, expr)


def _numeric(e):
    m = re.fullmatch(r"bit\((\d+)\)", e.value)
    if m:
        return 1 << int(m.group(1))
    try:
        return int(e.value, 0)
    except ValueError:
        return None


def _membership(item):
    """The body of `value is a declared enumerator`. Argument checks run on every call, so
    this is a few compares for contiguous enums and one 64-bit mask per block of 64 values
    for sparse ones, instead of a long switch."""
    values = [_numeric(e) for e in item.enumerators]
    if None in values:  # values written as expressions: let the compiler sort it out
        cases = ["    case %s:" % e.name for e in item.enumerators]
        return ["    switch (value) {"] + cases + ["        return true;", "    default:",
                                                     "        return false;", "    }"]
    ranges = []
    for v in sorted(set(values)):
        if ranges and v == ranges[-1][1] + 1:
            ranges[-1][1] = v
        else:
            ranges.append([v, v])
    if len(ranges) <= 4:
        terms = []
        for lo, hi in ranges:
            if lo == hi:
                terms.append("v == %#xu" % lo)
            elif lo == 0:
                terms.append("v <= %#xu" % hi)
            else:
                terms.append("(v >= %#xu && v <= %#xu)" % (lo, hi))
        return ["    uint32_t v = (uint32_t)value;", "    return %s;" % " ||\n           ".join(terms)]
    blocks = {}
    for v in set(values):
        blocks[v >> 6] = blocks.get(v >> 6, 0) | (1 << (v & 63))
    out = ["    uint32_t v = (uint32_t)value;", "    uint64_t mask;", "    switch (v >> 6) {"]
    for b in sorted(blocks):
        out.append("    case %d:" % b)
        out.append("        mask = %#xull;" % blocks[b])
        out.append("        break;")
    out += ["    default:", "        return false;", "    }", "    return (mask >> (v & 63)) & 1;"]
    return out


def enums_used(spec):
    owners = spec.enum_of_enumerator()
    used = []
    for fn in spec.functions():
        for _, expr in fn.checks:
            for m in ENUM_RANGE.finditer(expr):
                item = owners[m.group(1)]
                if item not in used:
                    used.append(item)
    return used


def element_checks(fn):
    """Handle arrays: every element must be a handle (wait lists have their own result)."""
    out = []
    for p in fn.params:
        rng = p.range
        if not rng or "in" not in p.tags or not HANDLE_ARRAY.match(p.ctype):
            continue
        result = "INVALID_EVENT_WAIT_LIST" if rng[1] == "numEventsInWaitList" else \
            "INVALID_NULL_HANDLE"
        out.append((p.name, rng[1], result))
    return out


STRUCT_PTR = re.compile(r"^(?:const )?(ur_\w+_t) \*$")


def chain_checks(spec, fn):
    """Input structs that carry an extension chain: each chain must end (common/core/pnext.h)."""
    out = []
    for p in fn.params:
        m = STRUCT_PTR.match(p.ctype)
        if not m or not ("in" in p.tags or "inout" in p.tags):
            continue
        st = spec.find("struct", m.group(1))
        if st is None or not any(mem.name == "pNext" for mem in st.members):
            continue
        out.append((p.name, p.range[1] if p.range else None))
    return out


# Handle types whose objects start with a urc_object_t of a known kind (common/core/object.h), and
# the result for a handle of another kind or of another adapter. An object kind added to
# object.h adds its row here, and every entry point taking that handle checks it.
HANDLE_KINDS = {
    "ur_adapter_handle_t": ("URC_KIND_ADAPTER", "INVALID_NULL_HANDLE"),
    "ur_platform_handle_t": ("URC_KIND_PLATFORM", "INVALID_PLATFORM"),
    "ur_device_handle_t": ("URC_KIND_DEVICE", "INVALID_DEVICE"),
    "ur_context_handle_t": ("URC_KIND_CONTEXT", "INVALID_CONTEXT"),
    "ur_queue_handle_t": ("URC_KIND_QUEUE", "INVALID_QUEUE"),
    "ur_event_handle_t": ("URC_KIND_EVENT", "INVALID_EVENT"),
    "ur_program_handle_t": ("URC_KIND_PROGRAM", "INVALID_PROGRAM"),
    "ur_kernel_handle_t": ("URC_KIND_KERNEL", "INVALID_KERNEL"),
    "ur_mem_handle_t": ("URC_KIND_MEM", "INVALID_MEM_OBJECT"),
    "ur_sampler_handle_t": ("URC_KIND_SAMPLER", "INVALID_SAMPLER"),
    "ur_usm_pool_handle_t": ("URC_KIND_USM_POOL", "INVALID_NULL_HANDLE"),
    "ur_physical_mem_handle_t": ("URC_KIND_PHYSICAL_MEM", "INVALID_NULL_HANDLE"),
    "ur_exp_command_buffer_handle_t": ("URC_KIND_COMMAND_BUFFER", "INVALID_COMMAND_BUFFER_EXP"),
}
KIND_PARAM = re.compile(r"^(?:const )?(ur_\w+_handle_t)(?: \*)?$")


def kind_checks(fn):
    """(parameter, kind, result, count or None) for every handle argument, and every element of a
    handle array, whose kind the adapter can check. NULL passes (the checks above decide
    whether NULL is allowed)."""
    out = []
    for p in fn.params:
        m = KIND_PARAM.match(p.ctype)
        if not m or "in" not in p.tags or m.group(1) not in HANDLE_KINDS:
            continue
        kind, result = HANDLE_KINDS[m.group(1)]
        if p.ctype.endswith("*"):
            if not p.range:
                continue
            count = p.range[1]
            if count == "numEventsInWaitList":
                result = "INVALID_EVENT_WAIT_LIST"
            out.append((p.name, kind, result, count))
        else:
            out.append((p.name, kind, result, None))
    return out


def kind_check_lines(fn, test):
    """C lines returning the wrong-kind result; `test` formats (handle, kind) as 'is fine'."""
    lines = []
    for name, kind, result, count in kind_checks(fn):
        ret = '        return urc_error_wrong_handle(UR_RESULT_ERROR_%s, "%s", "%s");' % (
            result, fn.name, name)
        if count is None:
            lines.append("    if (!%s)" % test(name, kind))
            lines.append(ret)
        else:
            lines.append("    for (size_t i = 0; %s != NULL && i < (size_t)(%s); ++i)" % (name, count))
            lines.append("        if (!%s)" % test(name + "[i]", kind))
            lines.append("    " + ret)
    return lines


def ordered_checks(fn):
    # A handle inside a struct (`NULL == pDesc->hCommand`) can only be read once the struct
    # pointer itself is known to be non-NULL, so those come after the pointer checks.
    first = [c for c in fn.checks if c[0] == "INVALID_NULL_HANDLE" and "->" not in c[1]]
    second = [c for c in fn.checks if c[0] == "INVALID_NULL_POINTER" and c[1].startswith("NULL == ")]
    rest = [c for c in fn.checks if c not in first and c not in second]
    return first + second + rest


def _c_string(text):
    return text.replace("\\", "\\\\").replace('"', '\\"').replace("::", "")


def ur_checks_h(spec):
    owners = spec.enum_of_enumerator()
    lines = ["// SPDX-License-Identifier: MIT",
             "// Generated by scripts/generate from scripts/api/; edit the description, not this file.",
             "// Argument checks of every entry point, from the conditions in the description.",
             "#ifndef URC_COMMON_GENERATED_UR_CHECKS_H",
             "#define URC_COMMON_GENERATED_UR_CHECKS_H", "",
             '#include "core/pnext.h"',
             '#include "ur_api.h"', '#include "core/error.h"', "",
             "#if defined(__GNUC__)",
             "#pragma GCC diagnostic push",
             "#pragma GCC diagnostic ignored \"-Wdeprecated-declarations\"",
             "#endif"]
    for item in enums_used(spec):
        ctype = item.flags_type if item.kind == "flags" else item.name
        lines.append("")
        lines.append("static inline bool urc_is_%s(%s value) {" % (item.name, ctype))
        lines += _membership(item)
        lines.append("}")
    for fn in spec.functions():
        lines.append("")
        lines.append("static inline ur_result_t %s(%s) {" % (check_name(fn), params_decl(fn)))
        for p in fn.params:
            lines.append("    (void)%s;" % p.name)
        for p in fn.params:
            if p.has("nullonfail"):  # a failure of any kind leaves NULL, never a stale handle
                lines.append("    if (%s != NULL)" % p.name)
                lines.append("        *%s = NULL;" % p.name)
        for result, expr in ordered_checks(fn):
            # The condition, as the description states it, is the message for
            # urAdapterGetLastError.
            lines.append("    if (%s)" % _rewrite(expr, owners))
            lines.append('        return urc_error_set(UR_RESULT_ERROR_%s, 0, "%s: %%s", "%s");'
                         % (result, fn.name, _c_string(expr)))
        for name, count, result in element_checks(fn):
            lines.append("    for (size_t i = 0; %s != NULL && i < (size_t)(%s); ++i)" % (name, count))
            lines.append("        if (%s[i] == NULL)" % name)
            lines.append("            return UR_RESULT_ERROR_%s;" % result)
        for name, count in chain_checks(spec, fn):
            if count is None:
                lines.append("    if (urc_pnext_check(%s) != UR_RESULT_SUCCESS)" % name)
                lines.append("        return UR_RESULT_ERROR_INVALID_VALUE;")
            else:
                lines.append("    for (size_t i = 0; %s != NULL && i < (size_t)(%s); ++i)" % (name, count))
                lines.append("        if (urc_pnext_check(&%s[i]) != UR_RESULT_SUCCESS)" % name)
                lines.append("            return UR_RESULT_ERROR_INVALID_VALUE;")
        lines.append("    return UR_RESULT_SUCCESS;")
        lines.append("}")
    lines += ["", "#if defined(__GNUC__)", "#pragma GCC diagnostic pop", "#endif", "",
              "#endif // URC_COMMON_GENERATED_UR_CHECKS_H", ""]
    return "\n".join(lines)


def route_is_checked(fn):
    """True when the checks already reject a NULL routing handle."""
    m = re.fullmatch(r"(\w+)\[0\]", fn.route)
    if m:
        arr = m.group(1)
        has_null = ("INVALID_NULL_POINTER", "NULL == " + arr) in fn.checks
        p = fn.param(arr)
        count = p.range[1] if p and p.range else None
        has_count = any(c[1].replace(" ", "") in (count + "==0",) for c in fn.checks) if count else False
        return has_null and has_count and any(e[0] == arr for e in element_checks(fn))
    return ("INVALID_NULL_HANDLE", "NULL == " + fn.route) in fn.checks
