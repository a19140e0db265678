"""Mutations for the torch versions kept as data (recorded/torch, docs/data/torch_versions.toml,
tests/test_torch_versions.py): a page that no longer says what a version prints, a shown output only one
version prints, a difference left out of the data file, an install table that misstates the record, a
source quote changed on the page."""

_T = ["tests/test_torch_versions.py"]

MUTATIONS = [
    Mutation("a torch 2.15 note dropped from its page (tensors: the mm: shape errors)",
             "sed -i '/^torch 2.15 names the operation in both messages/,+1d' docs/en/guide/tensors.md"
             " && ! grep -q 'mm: self must be a matrix' docs/en/guide/tensors.md",
             _T + ["-k", "quoted_from_the_record and matmul_shapes"],
             r"test_each_difference_is_quoted_from_the_record_on_its_pages\[2\.15\.0-guide/matmul_shapes\]"),
    Mutation("a shown output re-recorded with torch 2.15 (matmul_shapes: what 2.13 and 2.14 print is gone)",
             "cp recorded/torch/2.15.0/guide/matmul_shapes.out snippets/guide/matmul_shapes.out",
             _T + ["-k", "lists_exactly"],
             r"test_the_data_file_lists_exactly_the_scripts_that_differ\[2\.14\.1\]"),
    Mutation("a difference with torch 2.15 left out of docs/data/torch_versions.toml (matmul_shapes)",
             "python3 -c \"import pathlib; p=pathlib.Path('docs/data/torch_versions.toml'); h='\\n[[version.differs]]\\n'; "
             "parts=p.read_text().split(h); kept=[x for x in parts if 'script = \\\"guide/matmul_shapes\\\"' not in x]; "
             "assert len(kept) == len(parts) - 1; p.write_text(h.join(kept))\"",
             _T + ["-k", "lists_exactly"],
             r"test_the_data_file_lists_exactly_the_scripts_that_differ\[2\.15\.0\]"),
    # The count is read from the page, not written here: a fixed "149 of the 157" went stale when scripts
    # were added, and the mutation then changed nothing (BROKEN in the full run of 2026-11-29).
    Mutation("the install page's version table misstating the record (2.15.0's count of matching scripts, plus one)",
             "perl -0pi -e 's/(\\| 2\\.15\\.0 \\(PyPI[^\\n]*?: )(\\d+)( of the \\d+ print)/$1.($2+1).$3/e' docs/en/guide/install.md"
             " && ! git diff --quiet -- docs/en/guide/install.md",
             _T + ["-k", "version_table"],
             r"test_the_install_pages_version_table_gives_the_record\[2\.15\.0-en\]"),
    Mutation("a quotation of torch 2.15's source changed on its page (fsdp: FSDP1 still reduces in)",
             "sed -i 's/FSDP1 still reduces in/FSDP1 reduces in/' docs/en/amp/fsdp.md && grep -q 'FSDP1 reduces in' docs/en/amp/fsdp.md",
             _T + ["-k", "source_fact and _fsdp_api"],
             r"test_each_source_fact_is_in_that_versions_source_and_on_its_pages\[2\.15\.0-_fsdp_api\.py-0\]"),
]
