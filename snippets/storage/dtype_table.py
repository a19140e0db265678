import math

from reference_impl.storage import all_storage_dtypes, dtype_facts


def value_range(facts):
    if facts.is_floating:
        return f"±{facts.max:.6g}" if facts.max < 1e6 else f"±{facts.max:.4g}"
    if facts.max > 10**6:  # int32, int64, qint32: powers of two
        return f"-2^{int(math.log2(-facts.min))} .. 2^{int(math.log2(facts.max + 1))}-1"
    return f"{facts.min} .. {facts.max}"


def epsilon(facts):
    if facts.eps is None:  # integers, bool and quantized integers have no eps
        return "-"
    return f"2^{int(math.log2(facts.eps))} = {facts.eps:.3g}"


header = ("dtype", "bits", "bytes/value", "itemsize", "range", "eps", "inf", "legacy class")
rows = [header]
for dtype in all_storage_dtypes():
    facts = dtype_facts(dtype)
    rows.append((
        str(dtype).removeprefix("torch."),
        str(facts.bits),
        f"{facts.bytes_per_element:g}",
        str(dtype.itemsize),  # what tensor.element_size() reports for this dtype
        value_range(facts),
        epsilon(facts),
        {True: "yes", False: "no", None: "-"}[facts.has_inf],
        f"torch.{facts.legacy_storage}" if facts.legacy_storage else "(none)",
    ))

# Print a Markdown table with aligned columns; numbers (columns 1-3) are right-aligned.
widths = [max(len(row[i]) for row in rows) for i in range(len(header))]
numeric = {1, 2, 3}


def line(cells):
    return "| " + " | ".join(
        cell.rjust(w) if i in numeric else cell.ljust(w) for i, (cell, w) in enumerate(zip(cells, widths))
    ) + " |"


print(line(rows[0]))
print("|" + "|".join("-" * (w + 1) + (":" if i in numeric else "-") for i, w in enumerate(widths)) + "|")
for row in rows[1:]:
    print(line(row))
