"""The table model: one set of cells rendered to LaTeX (booktabs) and to Markdown."""

from __future__ import annotations

from dataclasses import dataclass, field

from tutorgraph_research.report._format import HEADER

# -- the table model -------------------------------------------------------------------------


@dataclass(frozen=True)
class Note:
    """A cell that carries a footnote: `text` in the cell, `reason` below the table."""

    text: str
    reason: str


Cell = str | Note


@dataclass
class Table:
    """One table, rendered to LaTeX (booktabs) and to Markdown from the same cells.

    A row of one string is a group heading spanning the table.

    >>> t = Table("t", "A caption.", ["a", "b"], [["x", "1"]])
    >>> print(t.markdown().splitlines()[-1])
    | x | 1 |
    """

    name: str
    caption: str
    columns: list[str]
    rows: list[list[Cell] | str]
    align: str = ""
    source: str = ""
    notes: list[str] = field(default_factory=list)
    wide: bool = False

    def _marks(self) -> dict[str, str]:
        reasons: list[str] = []
        for row in self.rows:
            if isinstance(row, str):
                continue
            for cell in row:
                if isinstance(cell, Note) and cell.reason not in reasons:
                    reasons.append(cell.reason)
        return {r: "abcdefghijklmnopqrstuvwxyz"[i % 26] for i, r in enumerate(reasons)}

    def latex(self) -> str:
        marks = self._marks()
        align = self.align or "l" + "r" * (len(self.columns) - 1)

        def cell(c: Cell) -> str:
            if isinstance(c, Note):
                return f"{tex_escape(c.text)}\\textsuperscript{{{marks[c.reason]}}}"
            return tex_escape(c)

        lines = [
            f"% {HEADER.format(src=self.source or 'the results files')}",
            "\\begin{table}[htbp]",
            "\\centering",
            f"\\caption{{{tex_escape(self.caption)}}}\\label{{tab:{self.name}}}",
            "\\small",
        ]
        if self.wide:
            lines.append("\\resizebox{\\linewidth}{!}{%")
        lines += [
            f"\\begin{{tabular}}{{{align}}}",
            "\\toprule",
            " & ".join(tex_escape(c) for c in self.columns) + " \\\\",
            "\\midrule",
        ]
        for i, row in enumerate(self.rows):
            if isinstance(row, str):
                if i:
                    lines.append("\\midrule")
                lines.append(
                    f"\\multicolumn{{{len(self.columns)}}}{{l}}{{\\emph{{{tex_escape(row)}}}}} \\\\"
                )
                continue
            lines.append(" & ".join(cell(c) for c in row) + " \\\\")
        lines += ["\\bottomrule", "\\end{tabular}"]
        if self.wide:
            lines.append("}")
        foot = [f"\\textsuperscript{{{m}}} {tex_escape(r)}" for r, m in marks.items()]
        foot += [tex_escape(n) for n in self.notes]
        if foot:
            lines += [
                "",
                "\\smallskip",
                "\\parbox{\\linewidth}{\\raggedright\\footnotesize " + " \\\\ ".join(foot) + "}",
            ]
        lines.append("\\end{table}")
        return "\n".join(lines) + "\n"

    def markdown(self) -> str:
        marks = self._marks()

        def cell(c: Cell) -> str:
            text = f"{c.text} ({marks[c.reason]})" if isinstance(c, Note) else c
            return text.replace("|", "\\|")

        align = self.align or "l" + "r" * (len(self.columns) - 1)
        rule = ["---:" if a == "r" else ":---:" if a == "c" else "---" for a in align]
        lines = [
            f"<!-- {HEADER.format(src=self.source or 'the results files')} -->",
            f"**Table ({self.name}).** {self.caption}",
            "",
            "| " + " | ".join(self.columns) + " |",
            "|" + "|".join(rule) + "|",
        ]
        for row in self.rows:
            if isinstance(row, str):
                lines.append(
                    "| " + " | ".join([f"*{row}*"] + [""] * (len(self.columns) - 1)) + " |"
                )
            else:
                lines.append("| " + " | ".join(cell(c) for c in row) + " |")
        foot = [f"({m}) {r}" for r, m in marks.items()] + list(self.notes)
        if foot:
            lines.append("")
            lines += [f"{line}  " if i < len(foot) - 1 else line for i, line in enumerate(foot)]
        return "\n".join(lines) + "\n"


_TEX_SPECIAL = {
    "\\": "\\textbackslash{}",
    "&": "\\&",
    "%": "\\%",
    "$": "\\$",
    "#": "\\#",
    "_": "\\_",
    "{": "\\{",
    "}": "\\}",
    "~": "\\textasciitilde{}",
    "^": "\\textasciicircum{}",
    "<": "\\textless{}",
    ">": "\\textgreater{}",
    "×": "$\\times$",
    "±": "$\\pm$",
    "→": "$\\rightarrow$",
    "≤": "$\\le$",
    "–": "--",
    "—": "---",
}


def tex_escape(text: str) -> str:
    """Plain text -> LaTeX text.

    >>> tex_escape("graph_scope=off & 5%")
    'graph\\\\_scope=off \\\\& 5\\\\%'
    """
    return "".join(_TEX_SPECIAL.get(ch, ch) for ch in text)
