"""Notebook pages (hook; both language builds), on top of mkdocs-jupyter.

* Figures: mkdocs-jupyter runs each notebook in a kernel that inherits the build's
  environment. ``MPLBACKEND=Agg`` (set by the tests, and by anyone's shell) makes
  ``plt.show()`` draw nothing, and its cache kept those plot-less pages for every
  later build. So ``on_config`` gives the kernel matplotlib's inline backend whatever
  the caller set, and keys mkdocs-jupyter's cache folder on what the outputs depend on
  (that backend, the reference_impl sources, the torch and matplotlib versions, the
  Python, the CPU's flags and the variables that choose torch's kernels) as
  well as on the notebook (which mkdocs-jupyter hashes itself). The kernel also gets
  ``FIGURE_LANG`` (``ja`` or ``en``), as the figure scripts do. Checked by
  tests/test_site_reader.py.
* Links to ``.md`` pages in notebook markdown become page URLs (mkdocs-jupyter leaves
  them as they are).
* Headings get the ids of the English notebook's headings in both languages (nbconvert
  gives Japanese headings an empty id and the table of contents ``_1``, ``_2``... that
  point nowhere).
* The JupyterLab CSS that mkdocs-jupyter inlines into every notebook page (about
  600 KB) is moved into one shared, cacheable file ``assets/jupyter.<hash>.css``,
  keeping only the rules for classes the notebook pages use (about a tenth).
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import platform
import posixpath
import re
import shutil
import sys
from importlib import metadata
from pathlib import Path

import tinycss2
from _common import DOCS, REPO, edited, lang, page_tree, soup
from mkdocs.exceptions import PluginError
from mkdocs.utils import normalize_url

INLINE_BACKEND = "module://matplotlib_inline.backend_inline"
NOTEBOOK_CSS_PLACEHOLDER = "assets/jupyter.css"
_notebook_css: dict[str, dict] = {}  # site_dir -> {css, classes used, notebook pages}, written after the build
# The variables that choose torch's CPU kernels (tests/support/shared_cache.py keys on the same).
KERNEL_VARIABLES = ("ATEN_CPU_CAPABILITY", "ONEDNN_MAX_CPU_ISA", "FBGEMM_ENABLE_INSTRUCTIONS",
                    "MKL_ENABLE_INSTRUCTIONS", "OMP_NUM_THREADS")


def _is_notebook(page) -> bool:
    return page.file.src_uri.endswith(".ipynb")


def _outputs_key() -> str:
    """What a notebook's outputs depend on besides the notebook itself."""
    digest = hashlib.sha256(f"MPLBACKEND={INLINE_BACKEND}".encode())
    for dist in ("torch", "matplotlib", "matplotlib-inline", "numpy", "scikit-learn"):
        try:
            digest.update(f"{dist}={metadata.version(dist)}".encode())
        except metadata.PackageNotFoundError:
            digest.update(f"{dist}=none".encode())
    for path in sorted((REPO / "reference_impl").rglob("*.py")):
        digest.update(path.relative_to(REPO).as_posix().encode() + path.read_bytes())
    # .cache is shared by the clones on the machine (.ci/setup): outputs computed under the
    # AVX2 kernel variables, by another Python or on another CPU are not this build's.
    digest.update(sys.version.encode())
    for name in KERNEL_VARIABLES:
        digest.update(f"{name}={os.environ.get(name)}".encode())
    digest.update(_cpu_flags().encode())
    return digest.hexdigest()[:16]


def _cpu_flags() -> str:
    """The CPU's feature flags (Linux; elsewhere the machine's name), sorted."""
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text(encoding="utf-8").splitlines():
            if line.startswith(("flags", "Features")):
                return " ".join(sorted(line.split(":", 1)[1].split()))
    return platform.machine() + platform.processor()


def on_config(config, **kwargs):
    # The kernel mkdocs-jupyter starts inherits os.environ: figures inline, whatever the caller set.
    os.environ["MPLBACKEND"] = INLINE_BACKEND
    # Like the figure scripts (figures.py): a notebook may label its figures in the page's language.
    os.environ["FIGURE_LANG"] = lang(config)
    plugin = config["plugins"].get("mkdocs-jupyter")
    if plugin is not None and plugin.config.get("cache"):
        base = Path(plugin.config["cache_dir"])
        if not base.is_absolute():
            base = REPO / base
        key = _outputs_key()
        if base.is_dir():  # entries of other keys (and of the unkeyed layout) are stale for good
            for old in base.iterdir():
                if old.name != key:
                    shutil.rmtree(old) if old.is_dir() else old.unlink()
        plugin.config["cache_dir"] = str(base / key)
    return config


def _english_heading_ids(src_uri: str) -> list[str]:
    """The ids mkdocs-jupyter's table of contents gives the English notebook's headings."""
    from mkdocs_jupyter.plugin import _get_nb_toc_tokens

    tokens, _ = _get_nb_toc_tokens(str(DOCS / "en" / src_uri), 6)
    ids: list[str] = []

    def walk(items):
        for item in items:
            ids.append(item["id"])
            walk(item["children"])

    walk(tokens)
    return ids


def _toc_items(toc):
    for item in toc:
        yield item
        yield from _toc_items(item.children)


def _fix_headings(tree, page) -> None:
    ids = _english_heading_ids(page.file.src_uri)
    headings = [
        h for h in tree.find_all(["h1", "h2", "h3", "h4", "h5", "h6"]) if h.find("a", class_="anchor-link", recursive=False)
    ]
    items = list(_toc_items(page.toc))
    if len(headings) != len(ids) or len(items) != len(ids):
        raise PluginError(
            f"{page.file.src_uri}: {len(headings)} headings and {len(items)} table-of-contents entries, "
            f"but the English notebook has {len(ids)} headings; the notebooks must have the same headings"
        )
    for item, heading, new in zip(items, headings, ids):
        item.id = new
        heading["id"] = new
        heading.find("a", class_="anchor-link", recursive=False)["href"] = f"#{new}"


def _fix_md_links(tree, page, files) -> None:
    for a in tree.find_all(href=True):
        path, _, frag = a["href"].partition("#")
        if not path.endswith(".md") or ":" in path or "?" in path:
            continue
        target = posixpath.normpath(posixpath.join(posixpath.dirname(page.file.src_uri), path))
        file = files.get_file_from_path(target)
        if file is None:
            raise PluginError(f"{page.file.src_uri}: link to {path} ({target}) does not exist")
        a["href"] = file.url_relative_to(page.file) + (f"#{frag}" if frag else "")


def _move_css(tree, page, config) -> None:
    styles = tree.find_all("style")
    css = "\n".join((s.string or "").strip() for s in styles)
    if not css.strip():
        return
    state = _notebook_css.setdefault(config["site_dir"], {"css": css, "classes": set(), "pages": []})
    if state["css"] != css:
        raise PluginError(f"{page.file.src_uri}: its inline notebook CSS differs from the other notebooks'")
    state["classes"].update(c for el in tree.find_all(class_=True) for c in el["class"])
    state["pages"].append(page.file.abs_dest_path)
    link = tree.new_tag("link", rel="stylesheet", href=normalize_url(NOTEBOOK_CSS_PLACEHOLDER, page))
    styles[0].replace_with(link)
    for style in styles[1:]:
        style.decompose()


# mkdocs-jupyter's template and nbconvert write these in English on every site.
NOTEBOOK_LABELS = {
    "ja": {"copy": "クリップボードへコピー", "copied": "コピーしました", "figure": "このセルが描いた図"},
    "en": {"copy": "Copy to clipboard", "copied": "Copied!", "figure": "Figure drawn by this cell"},
}


def _localize_labels(tree, config) -> None:
    labels = NOTEBOOK_LABELS.get(lang(config), NOTEBOOK_LABELS["en"])
    for button in tree.find_all("clipboard-copy"):
        button["aria-label"] = labels["copy"]
        notice = button.find(class_="notice")
        if notice is not None:
            notice.string = labels["copied"]
    for img in tree.find_all("img", alt="No description has been provided for this image"):
        img["alt"] = labels["figure"]


def on_page_content(html_content, page, config, files, **kwargs):
    if not _is_notebook(page):
        return html_content
    tree = page_tree(html_content, page)  # parsed once for every hook (_common.py)
    _localize_labels(tree, config)
    _fix_headings(tree, page)
    _fix_md_links(tree, page, files)
    _move_css(tree, page, config)
    return edited(html_content, page)


def _classes_of(tokens) -> set[str] | None:
    """The classes a selector requires, or None if it can match nothing on a page.

    What is inside :not(), :is(), :where(), :has() and [attribute] need not be on
    the page: those are nested tokens here, so they are not looked at.
    """
    classes: set[str] = set()
    for i, tok in enumerate(tokens):
        prev = tokens[i - 1] if i else None
        if tok.type != "ident" or prev is None or prev.type != "literal":
            continue
        if prev.value == ".":
            classes.add(tok.value)
        elif prev.value == ":" and tok.lower_value == "root" and i >= 2 and tokens[i - 2].type == "whitespace":
            return None  # ".jupyter-wrapper :root" matches nothing
    return classes


def _split_selectors(prelude) -> list[list]:
    """A selector list's selectors, each without the whitespace around it."""
    parts: list[list] = [[]]
    for tok in prelude:
        if tok.type == "literal" and tok.value == ",":
            parts.append([])
        elif tok.type != "comment":
            parts[-1].append(tok)
    for part in parts:
        while part and part[0].type == "whitespace":
            part.pop(0)
        while part and part[-1].type == "whitespace":
            part.pop()
    return parts


def _prune_rules(rules, classes: set[str]) -> list[str]:
    out: list[str] = []
    for rule in rules:
        if rule.type == "qualified-rule":
            kept = []
            for selector in _split_selectors(rule.prelude):
                needed = _classes_of(selector)
                if needed is not None and needed <= classes:
                    kept.append(tinycss2.serialize(selector).strip())
            if kept:
                out.append(f"{','.join(kept)}{{{tinycss2.serialize(rule.content).strip()}}}")
        elif rule.type == "at-rule":
            head = f"@{rule.at_keyword}{tinycss2.serialize(rule.prelude)}".strip()
            if rule.content is None:  # @charset, @import
                out.append(f"{head};")
            elif rule.lower_at_keyword in ("media", "supports"):
                inner = _prune_rules(tinycss2.parse_rule_list(rule.content, skip_comments=True, skip_whitespace=True), classes)
                if inner:
                    out.append(f"{head}{{{chr(10).join(inner)}}}")
            else:  # @keyframes, @font-face: kept as they are
                out.append(f"{head}{{{tinycss2.serialize(rule.content).strip()}}}")
    return out


def prune_css(css: str, classes: set[str]) -> str:
    """Drop the rules of a stylesheet whose selectors need a class no page uses.

    JupyterLab's stylesheet (~600 KB) styles a whole IDE; a rendered notebook uses
    a few dozen of its classes. Rules without classes, @keyframes, @font-face and
    the like are kept as they are; @media and @supports blocks are pruned inside.
    Parsed with tinycss2 (a CSS tokenizer), not with regular expressions.
    """
    out = _prune_rules(tinycss2.parse_stylesheet(css, skip_comments=True, skip_whitespace=True), classes)
    # A rule repeated word for word (index.css and theme-light.css both set the
    # variables) counts once, at its last place, which is where it wins the cascade.
    last = {rule: k for k, rule in enumerate(out)}
    return "\n".join(rule for k, rule in enumerate(out) if last[rule] == k)


_VAR = re.compile(r"var\(\s*(--[\w-]+)")


def _declarations(rule) -> list:
    return [d for d in tinycss2.parse_declaration_list(rule.content, skip_comments=True, skip_whitespace=True)
            if d.type == "declaration"]


def _custom_properties(rules, defined: dict[str, set[str]], used: set[str]) -> None:
    """Each custom property's definitions (name -> the variables its values read) and the variables
    that ordinary declarations read, over ``rules`` and the @media/@supports blocks inside them."""
    for rule in rules:
        if rule.type == "qualified-rule":
            for decl in _declarations(rule):
                refs = set(_VAR.findall(tinycss2.serialize(decl.value)))
                if decl.name.startswith("--"):
                    defined.setdefault(decl.name, set()).update(refs)
                else:
                    used.update(refs)
        elif rule.type == "at-rule" and rule.content is not None and rule.lower_at_keyword in ("media", "supports"):
            _custom_properties(tinycss2.parse_rule_list(rule.content, skip_comments=True, skip_whitespace=True),
                               defined, used)


def _drop_declarations(rules, keep: set[str]) -> list[str]:
    out: list[str] = []
    for rule in rules:
        if rule.type == "qualified-rule":
            decls = [d for d in _declarations(rule) if not d.name.startswith("--") or d.name in keep]
            if decls:
                out.append(f"{tinycss2.serialize(rule.prelude).strip()}{{{';'.join(d.serialize() for d in decls)}}}")
        elif rule.type == "at-rule" and rule.content is not None and rule.lower_at_keyword in ("media", "supports"):
            inner = _drop_declarations(tinycss2.parse_rule_list(rule.content, skip_comments=True, skip_whitespace=True), keep)
            if inner:
                out.append(f"@{rule.at_keyword}{tinycss2.serialize(rule.prelude)}".strip() + f"{{{chr(10).join(inner)}}}")
        elif rule.type == "at-rule":
            head = f"@{rule.at_keyword}{tinycss2.serialize(rule.prelude)}".strip()
            out.append(f"{head};" if rule.content is None else f"{head}{{{tinycss2.serialize(rule.content).strip()}}}")
    return out


def drop_unused_custom_properties(css: str, read_elsewhere: set[str] = frozenset()) -> str:
    """Drop the custom properties (``--jp-…``) that nothing reads.

    JupyterLab's theme defines about 450 variables on ``.jupyter-wrapper``, and every element inside
    it inherits all of them: after prune_css a notebook's rules read about a hundred. The others made
    each style recalculation of a notebook page slower (Lighthouse on the English quantize-rnn page,
    2026-11-30, three runs each: total blocking time 117-171 ms with them, 35-91 ms without the
    stylesheet at all). Kept: every variable an ordinary declaration reads, the variables those read,
    and so on, and ``read_elsewhere`` (variables the pages' own markup reads).
    """
    rules = tinycss2.parse_stylesheet(css, skip_comments=True, skip_whitespace=True)
    defined: dict[str, set[str]] = {}
    used = set(read_elsewhere)
    _custom_properties(rules, defined, used)
    keep: set[str] = set()
    todo = list(used)
    while todo:
        name = todo.pop()
        if name not in keep:
            keep.add(name)
            todo.extend(defined.get(name, ()))
    return "\n".join(_drop_declarations(rules, keep))


def on_post_build(config, **kwargs):
    site_dir = Path(config["site_dir"])
    state = _notebook_css.pop(config["site_dir"], None)
    if state is None:
        return
    read_by_pages = {name for dest in state["pages"] for name in _VAR.findall(Path(dest).read_text(encoding="utf-8"))}
    css = drop_unused_custom_properties(prune_css(state["css"], state["classes"] | {"jupyter-wrapper"}), read_by_pages)
    name = f"assets/jupyter.{hashlib.sha256(css.encode()).hexdigest()[:8]}.css"
    (site_dir / name).write_text(css + "\n", encoding="utf-8")
    for dest in state["pages"]:  # the placeholder name becomes the content-hashed one
        tree = soup(Path(dest).read_text(encoding="utf-8"))
        for link in tree.find_all("link", href=True):
            if link["href"].endswith(NOTEBOOK_CSS_PLACEHOLDER):
                link["href"] = link["href"][: -len(NOTEBOOK_CSS_PLACEHOLDER)] + name
        Path(dest).write_text(str(tree), encoding="utf-8")
