"""The formulas of the app's texts, written in TeX ($...$ in a line, $$...$$ set apart), as MathML.

Browsers draw MathML themselves, so a page with formulas needs no typesetting script: rendering
TeX in the browser meant loading KaTeX (a 266 KB script, its styles and fonts) before an
explanation beside a figure could be laid out. `with_mathml(text)` rewrites every formula of a
Markdown text as a <math> element; the rest of the text is left as it is.

The TeX read here is the part the texts use: letters, numbers and operators, groups, sub- and
superscripts, \\frac, \\sqrt, \\mathrm, \\text, \\left...\\right, \\big, Greek letters, named
functions and operators, and spacing. Anything else is refused with its name, so a new formula
using it fails the text tests instead of showing its source.
"""
from __future__ import annotations

import re

_TOKEN = re.compile(r"\\[A-Za-z]+|\\.|[0-9]+(?:\.[0-9]+)?|\S")
_FORMULA = re.compile(r"\$\$(.+?)\$\$|\$([^$\n]+?)\$", re.S)

_IDENTIFIERS = {"\\alpha": "α", "\\beta": "β", "\\gamma": "γ", "\\delta": "δ", "\\epsilon": "ϵ", "\\theta": "θ",
                "\\lambda": "λ", "\\mu": "μ", "\\pi": "π", "\\sigma": "σ", "\\tau": "τ", "\\phi": "ϕ",
                "\\infty": "∞", "\\top": "⊤", "\\dots": "…", "\\ldots": "…"}
_UPRIGHT = {"\\Phi": "Φ", "\\Sigma": "Σ", "\\Delta": "Δ", "\\Omega": "Ω"}
_OPERATORS = {"\\cdot": "⋅", "\\approx": "≈", "\\to": "→", "\\times": "×", "\\odot": "⊙", "\\mid": "∣",
              "\\lVert": "‖", "\\rVert": "‖", "\\le": "≤", "\\ge": "≥", "\\neq": "≠", "\\in": "∈", "-": "−",
              "*": "∗", "'": "′"}
_LARGE = {"\\sum": "∑", "\\prod": "∏", "\\max": "max", "\\min": "min"}       # limits go below and above
_FUNCTIONS = {"\\log", "\\ln", "\\exp", "\\sin", "\\cos", "\\tanh"}
_SPACES = {"\\,": "0.1667em", "\\;": "0.2778em", "\\quad": "1em", "\\qquad": "2em"}
_TEXT = {"\\mathrm": "mi", "\\text": "mtext"}
_FRACTIONS = {"\\frac", "\\tfrac"}


def with_mathml(text: str) -> str:
    """`text` with each $...$ and $$...$$ formula written as an inline or a block <math> element."""
    if "$" not in text:
        return text
    return _FORMULA.sub(lambda match: mathml(match.group(1) or match.group(2), display=match.group(1) is not None),
                        text)


def mathml(tex: str, display: bool = False) -> str:
    """One TeX formula as a <math> element (display: set apart, centred on its own line)."""
    parser = _Parser(tex)
    body = parser.sequence(stop=None)
    opening = '<math display="block">' if display else "<math>"
    return f"{opening}<mrow>{body}</mrow></math>"


def _character(ch: str) -> str:
    """A character as MathML text that Markdown cannot read as syntax (every ASCII sign by reference)."""
    return ch if ch.isalnum() or ch == " " or ord(ch) > 127 else f"&#{ord(ch)};"


def _escaped(text: str) -> str:
    return "".join(_character(ch) for ch in text)


class _Parser:
    """A recursive reading of one formula's tokens into MathML."""

    def __init__(self, tex: str) -> None:
        self.tex = tex
        matches = list(_TOKEN.finditer(tex))
        self.tokens = [match.group() for match in matches]
        self.spans = [match.span() for match in matches]
        self.at = 0

    def _peek(self) -> str | None:
        return self.tokens[self.at] if self.at < len(self.tokens) else None

    def _take(self) -> str:
        token = self._peek()
        if token is None:
            raise ValueError(f"the formula {self.tex!r} ends where more was expected")
        self.at += 1
        return token

    def sequence(self, stop: str | None) -> str:
        """Atoms with their scripts up to `stop` ("}" or "\\right"; None: the end), which is left unread."""
        parts = []
        while (token := self._peek()) is not None and token != stop:
            if token in ("}", "\\right"):
                raise ValueError(f"the formula {self.tex!r} closes {token!r} that it never opened")
            parts.append(self._scripted())
        if stop is not None and token is None:
            raise ValueError(f"the formula {self.tex!r} leaves a group open (no {stop!r})")
        return "".join(parts)

    def _scripted(self) -> str:
        base, large = self._atom()
        scripts = {}
        while self._peek() in ("_", "^"):
            mark = self._take()
            if mark in scripts:
                raise ValueError(f"the formula {self.tex!r} gives one base two {mark!r} scripts")
            scripts[mark] = self._argument()
        if not scripts:
            return base
        if "_" in scripts and "^" in scripts:
            tag = "munderover" if large else "msubsup"
            return f"<{tag}>{base}{scripts['_']}{scripts['^']}</{tag}>"
        under, over = ("munder", "mover") if large else ("msub", "msup")
        tag = under if "_" in scripts else over
        return f"<{tag}>{base}{scripts.get('_', scripts.get('^'))}</{tag}>"

    def _argument(self) -> str:
        """A script or a command's argument: a group, or a single atom (_atom reads both)."""
        return self._atom()[0]

    def _raw_group(self) -> str:
        """The source text of a {...} group (the argument of \\mathrm or \\text), unread as TeX."""
        if self._take() != "{":
            raise ValueError(f"the formula {self.tex!r} needs a {{...}} group after a text command")
        start, depth = self.spans[self.at - 1][1], 1
        while depth:
            depth += {"{": 1, "}": -1}.get(self._take(), 0)
        return self.tex[start:self.spans[self.at - 1][0]]

    def _atom(self) -> tuple[str, bool]:
        """The next atom as MathML, and whether its scripts go below and above it."""
        token = self._take()
        if token == "{":
            body = self.sequence(stop="}")
            self._take()
            return f"<mrow>{body}</mrow>", False
        if token in ("_", "^"):
            raise ValueError(f"the formula {self.tex!r} has a script without a base")
        if token[0].isdigit():
            return f"<mn>{token}</mn>", False
        if token.isalpha() and len(token) == 1:
            return f"<mi>{token}</mi>", False
        if token in _IDENTIFIERS:
            return f"<mi>{_IDENTIFIERS[token]}</mi>", False
        if token in _UPRIGHT:
            return f'<mi mathvariant="normal">{_UPRIGHT[token]}</mi>', False
        if token in _OPERATORS:
            return f"<mo>{_escaped(_OPERATORS[token])}</mo>", False
        if token in _LARGE:
            return f"<mo>{_LARGE[token]}</mo>", True
        if token in _FUNCTIONS:
            follows = self._peek()
            space = "" if follows in ("(", "\\left", "\\big") else '<mspace width="0.1667em"></mspace>'
            return f"<mi>{token[1:]}</mi>{space}", False
        if token in _SPACES:
            return f'<mspace width="{_SPACES[token]}"></mspace>', False
        if token in _TEXT:
            tag = _TEXT[token]
            words = self._raw_group()
            variant = ' mathvariant="normal"' if tag == "mi" else ""
            return f"<{tag}{variant}>{_escaped(words)}</{tag}>", False
        if token in _FRACTIONS:
            numerator, denominator = self._argument(), self._argument()
            return f"<mfrac>{numerator}{denominator}</mfrac>", False
        if token == "\\sqrt":
            return f"<msqrt>{self._argument()}</msqrt>", False
        if token == "\\left":
            opening = self._delimiter()
            body = self.sequence(stop="\\right")
            self._take()
            closing = self._delimiter()
            return f"<mrow>{self._fence(opening)}{body}{self._fence(closing)}</mrow>", False
        if token == "\\big":
            return self._fence(self._delimiter(), size="1.2em"), False
        if token.startswith("\\"):
            raise ValueError(f"the formula {self.tex!r} uses {token}, which the app does not typeset")
        return f"<mo>{_escaped(token)}</mo>", False

    def _delimiter(self) -> str:
        token = self._take()
        if token == ".":
            return ""
        if token in ("\\lVert", "\\rVert"):
            return "‖"
        if token not in ("(", ")", "[", "]", "|", "\\{", "\\}"):
            raise ValueError(f"the formula {self.tex!r} uses {token!r} as a delimiter")
        return token[-1]

    @staticmethod
    def _fence(delimiter: str, size: str | None = None) -> str:
        if not delimiter:
            return ""
        sizes = f' minsize="{size}" maxsize="{size}"' if size else ""
        return f'<mo stretchy="true"{sizes}>{_escaped(delimiter)}</mo>'
