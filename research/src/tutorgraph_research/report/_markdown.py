"""`paper.md`: the paper's LaTeX subset converted to Markdown."""

from __future__ import annotations

import re
from collections import defaultdict
from pathlib import Path

from tutorgraph_research.report._format import write_if_changed

# -- paper.tex -> paper.md ---------------------------------------------------------------------

_SIMPLE_MACROS = {
    r"\\LaTeX\{\}": "LaTeX",
    r"\\ldots\{\}": "...",
    r"\\times\b": "×",
    r"\\le\b": "≤",
    r"\\ge\b": "≥",
    r"\\approx\b": "≈",
    r"\\rightarrow\b": "→",
    r"\\pm\b": "±",
}


def _macros(numbers_tex: str) -> dict[str, str]:
    out = {}
    for m in re.finditer(r"\\newcommand\{\\(\w+)\}\{((?:[^{}]|\{[^{}]*\})*)\}", numbers_tex):
        out[m.group(1)] = _inline(m.group(2), {})
    return out


def _inline(text: str, macros: dict[str, str]) -> str:
    """LaTeX inline markup of the paper's subset -> Markdown."""
    for name in sorted(macros, key=len, reverse=True):
        value = macros[name]
        text = re.sub(rf"\\{name}(?![A-Za-z])(\{{\}})?", lambda _m: value, text)  # noqa: B023
    text = re.sub(r"\\href\{([^}]*)\}\{([^}]*)\}", r"[\2](\1)", text)
    text = re.sub(r"\\url\{([^}]*)\}", r"<\1>", text)
    text = re.sub(r"\\emph\{([^{}]*)\}", r"*\1*", text)
    text = re.sub(r"\\textit\{([^{}]*)\}", r"*\1*", text)
    text = re.sub(r"\\textbf\{([^{}]*)\}", r"**\1**", text)
    text = re.sub(
        r"\\texttt\{([^{}]*)\}", lambda m: "`" + m.group(1).replace("\\_", "_") + "`", text
    )
    text = re.sub(r"\\textsuperscript\{([^{}]*)\}", r"^\1", text)
    text = re.sub(
        r"(?:Table|Figure|Section)~\\ref\{([^}]*)\}",
        lambda m: m.group(0).split("~")[0] + " {{" + m.group(1) + "}}",
        text,
    )
    text = re.sub(r"\\ref\{([^}]*)\}", r"{{\1}}", text)
    text = re.sub(r"\\cite\{([^}]*)\}", lambda m: "[[cite:" + m.group(1) + "]]", text)
    for pat, rep in _SIMPLE_MACROS.items():
        text = re.sub(pat, rep, text)
    text = re.sub(r"\$([^$]*)\$", r"\1", text)
    for accent, letter in (('\\"u', "ü"), ('\\"o', "ö"), ('\\"a', "ä")):
        text = text.replace(accent, letter)
    text = text.replace("``", "\u201c").replace("''", "\u201d")
    text = text.replace("---", "\u2014").replace("--", "\u2013")
    text = text.replace("~", " ").replace("\\,", " ")
    for esc, ch in (
        ("\\%", "%"),
        ("\\&", "&"),
        ("\\_", "_"),
        ("\\#", "#"),
        ("\\$", "$"),
        ("\\{", "{"),
        ("\\}", "}"),
    ):
        text = text.replace(esc, ch)
    return text


def _strip_comments(tex: str) -> str:
    return "\n".join(
        re.sub(r"(?<!\\)%.*$", "", line) if not line.lstrip().startswith("%") else ""
        for line in tex.splitlines()
    )


def latex_to_markdown(tex: str, base: Path) -> str:
    """Convert the paper's LaTeX subset to Markdown (the rendering `paper/paper.md`).

    The subset: `\\title`, `\\author`, `abstract`, `\\section`, `\\subsection`, `\\paragraph`,
    `itemize`/`enumerate`, `verbatim`, `figure` with one `\\includegraphics` and a caption,
    `\\input{tables/x}` (replaced by `tables/x.md` under `base`), macros from
    `tables/numbers.tex`, `\\ref` (numbered by caption order), `\\cite` with a
    `thebibliography`, and inline `\\emph`, `\\textbf`, `\\texttt`, `\\url`, `\\href`.

    >>> latex_to_markdown(r"\\begin{document}\\section{Problem}Text~here.\\end{document}",
    ...                   Path("."))
    '## Problem\\n\\nText here.\\n'
    """
    numbers = base / "tables" / "numbers.tex"
    macros = _macros(numbers.read_text(encoding="utf-8")) if numbers.is_file() else {}
    title = _argument(tex, "title")
    author = _argument(tex, "author")
    body = tex.split("\\begin{document}", 1)[-1].split("\\end{document}", 1)[0]
    body = _strip_comments(body)
    out: list[str] = []
    bib: list[tuple[str, str]] = []

    def para(text: str) -> None:
        text = " ".join(text.split())
        if text:
            out.append(_inline(text, macros))

    # Blocks: environments are handled whole; the rest goes paragraph by paragraph.
    token = re.compile(
        r"\\begin\{(abstract|itemize|enumerate|verbatim|figure\*?|thebibliography|table)\}"
        r"(.*?)\\end\{\1\}|\\(section|subsection|paragraph)\*?\{([^}]*)\}|\\input\{([^}]*)\}"
        r"|\\maketitle",
        re.S,
    )
    pos = 0
    for m in token.finditer(body):
        for chunk in re.split(r"\n\s*\n", body[pos : m.start()]):
            para(_drop_layout(chunk))
        pos = m.end()
        env, content, sec, heading, inp = m.groups()
        if m.group(0) == "\\maketitle":
            if title:
                out.append("# " + _inline(" ".join(title.split()), macros))
            if author:
                out.append("*" + _inline(author.replace("\\\\", ", "), macros) + "*")
        elif sec:
            level = {"section": "##", "subsection": "###"}.get(sec)
            if level:
                out.append(f"{level} {_inline(heading, macros)}")
            else:
                rest = body[pos:]
                nxt = re.search(r"\n\s*\n", rest)
                cut = nxt.start() if nxt else len(rest)
                text = _inline(" ".join(_drop_layout(rest[:cut]).split()), macros)
                out.append(f"**{_inline(heading, macros)}** {text}".rstrip())
                pos += cut
        elif inp:
            path = base / (inp if inp.endswith(".md") else inp.removesuffix(".tex") + ".md")
            if path.is_file():
                text = path.read_text(encoding="utf-8")
                text = re.sub(r"<!--.*?-->\n?", "", text, flags=re.S)
                # A table file names itself; in the paper it gets its number.
                text = re.sub(r"\*\*Table \(([^)]*)\)\.\*\*", r"**Table {{tab:\1}}.**", text)
                out.append(text.strip())
        elif env == "abstract":
            out.append("**Abstract.** " + _inline(" ".join(content.split()), macros))
        elif env in ("itemize", "enumerate"):
            items = [i for i in re.split(r"\\item\s*", content)[1:]]
            mark = "-" if env == "itemize" else "1."
            out.append("\n".join(f"{mark} " + _inline(" ".join(i.split()), macros) for i in items))
        elif env == "verbatim":
            out.append("```\n" + content.strip("\n") + "\n```")
        elif env and env.startswith("figure"):
            img = re.search(r"\\includegraphics(?:\[[^]]*\])?\{([^}]*)\}", content)
            cap = re.search(r"\\caption\{((?:[^{}]|\{[^{}]*\})*)\}", content)
            label = re.search(r"\\label\{([^}]*)\}", content)
            caption = _inline(" ".join(cap.group(1).split()), macros) if cap else ""
            if img:
                out.append(f"![{_plain(caption)}]({img.group(1)})")
            if label:
                out.append(f"**Figure {{{{{label.group(1)}}}}}.** {caption}")
        elif env == "thebibliography":
            for key, text in re.findall(
                r"\\bibitem\{([^}]*)\}(.*?)(?=\\bibitem|\Z)", content, re.S
            ):
                bib.append((key, _inline(" ".join(text.split()), macros)))
            out.append("## References")
            out.append("\n".join(f"{i}. {text}" for i, (_, text) in enumerate(bib, start=1)))
    for chunk in re.split(r"\n\s*\n", body[pos:]):
        para(_drop_layout(chunk))
    md = "\n\n".join(out) + "\n"
    return _number_refs(md, [k for k, _ in bib])


def _argument(tex: str, command: str) -> str | None:
    """The brace-balanced argument of the first `\\command{...}` in `tex`, or None."""
    start = tex.find(f"\\{command}{{")
    if start < 0:
        return None
    i = start + len(command) + 2
    depth = 1
    for j in range(i, len(tex)):
        depth += {"{": 1, "}": -1}.get(tex[j], 0)
        if depth == 0:
            return tex[i:j]
    return None


def _plain(text: str) -> str:
    return re.sub(r"[*`\[\]]", "", text)


def _drop_layout(text: str) -> str:
    text = re.sub(
        r"\\(noindent|centering|small|footnotesize|medskip|smallskip|bigskip|clearpage|newpage)\b",
        "",
        text,
    )
    text = re.sub(r"\\label\{[^}]*\}", "", text)
    return text.replace("\\\\", "  \n")


def _number_refs(md: str, bib_keys: list[str]) -> str:
    numbers: dict[str, int] = {}
    counters: dict[str, int] = defaultdict(int)
    for m in re.finditer(r"\*\*(Table|Figure) \{\{([^}]*)\}\}\.\*\*", md):
        kind, label = m.group(1), m.group(2)
        if label not in numbers:
            counters[kind] += 1
            numbers[label] = counters[kind]
    md = re.sub(r"\{\{([^}]*)\}\}", lambda m: str(numbers.get(m.group(1), "?")), md)

    def cite(m: re.Match[str]) -> str:
        keys = [k.strip() for k in m.group(1).split(",")]
        return (
            "["
            + ", ".join(str(bib_keys.index(k) + 1) if k in bib_keys else "?" for k in keys)
            + "]"
        )

    return re.sub(r"\[\[cite:([^\]]*)\]\]", cite, md)


def render_paper_markdown(paper_tex: Path, out: Path) -> Path:
    """`paper.md` from `paper.tex`, with tables and numbers from `out/tables`."""
    md = latex_to_markdown(paper_tex.read_text(encoding="utf-8"), out)
    head = f"<!-- Generated from {paper_tex.name} by tutorgraph_research.report; do not edit. -->\n"
    return write_if_changed(out / "paper.md", head + md)
