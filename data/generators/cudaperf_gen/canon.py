"""Canonical form of a computation, for near-duplicate removal.

Two tasks are the same computation "up to renaming and constants" when their C references agree
after: comments and whitespace dropped, every identifier that is not a C keyword or a <math.h> /
<stdint.h> name renamed by order of first appearance (v0, v1, ...), and every numeric literal
replaced by '#'. #include lines are dropped; #define lines stay (their bodies are structure). The element types stay (a float and a double version are different tasks), and so
does the structure: operators, calls, loops, the number of terms."""
import hashlib
import re

KEEP = set("""
auto break case char const continue default do double else enum extern float for goto if inline int
long register restrict return short signed sizeof static struct switch typedef union unsigned void
volatile while _Bool
int8_t uint8_t int16_t uint16_t int32_t uint32_t int64_t uint64_t size_t
INT_MAX INT_MIN UINT_MAX INFINITY NAN
""".split())
MATH = set("""
fabs fabsf sqrt sqrtf exp expf exp2 exp2f expm1 expm1f log logf log2 log2f log1p log1pf sin sinf cos
cosf tan tanf tanh tanhf atan atanf atan2 atan2f pow powf floor floorf ceil ceilf round roundf rint
rintf trunc truncf fmin fminf fmax fmaxf fma fmaf erf erff cbrt cbrtf hypot hypotf copysign copysignf
memset memcpy
""".split())

UNARY_BEFORE = set("( [ , = ? : ; { } + - * / % < > ! & | ^ ~ return".split())

_TOKEN = re.compile(r"""
    (?P<comment>/\*.*?\*/|//[^\n]*)
  | (?P<ws>\s+)
  | (?P<num>(?:0[xX][0-9a-fA-F]+|(?:\d+\.\d*|\.\d+|\d+)(?:[eE][+-]?\d+)?)[uUlLfF]*)
  | (?P<ident>[A-Za-z_]\w*)
  | (?P<pp>\#\s*include[^\n]*)
  | (?P<hash>\#\s*\w+)
  | (?P<op>[^\s\w])
""", re.S | re.X)


def tokens(src):
    for m in _TOKEN.finditer(src):
        kind = m.lastgroup
        if kind in ("comment", "ws", "pp"):
            continue
        yield kind, m.group()


def canonical_c(src):
    names = {}
    out = []
    for kind, text in tokens(src):
        if kind == "num":
            # a unary minus belongs to the constant: "- 0.75" and "2.5" are both constants
            if len(out) >= 1 and out[-1] == "-" and (len(out) == 1 or out[-2] in UNARY_BEFORE):
                out.pop()
            out.append("#")
        elif kind == "ident" and text not in KEEP and text not in MATH:
            if text not in names:
                names[text] = f"v{len(names)}"
            out.append(names[text])
        else:
            out.append(text)
    return " ".join(out)


def canonical_hash(src):
    return hashlib.sha256(canonical_c(src).encode()).hexdigest()[:16]


# ---- torch2cuda references (reference.py): the same rule over Python tokens
import io as _io  # noqa: E402
import keyword as _keyword  # noqa: E402
import tokenize as _tokenize  # noqa: E402

PY_KEEP = set(_keyword.kwlist) | {"self", "super", "float", "int", "len", "range", "min", "max", "abs", "True", "False", "None",
                                  "torch", "nn", "F", "math"}
# integer literals in these calls (or after dim=) are dimensions, not constants: sum over dim 1 and
# over dim 2 are different computations
# and so are window shapes: after kernel_size= / stride= / padding= / dilation= / diagonal= (as the
# number of stencil points in a C reference, they set the number of terms, not a constant's value)
KEEP_INT_KW = {"dim", "dims", "kernel_size", "stride", "padding", "dilation", "diagonal"}
DIM_CALLS = {"transpose", "permute", "movedim", "flip", "unsqueeze", "squeeze", "view", "reshape", "flatten", "chunk", "split"}


def canonical_py(src):
    """Python tokens of src with docstrings/comments dropped, names renamed by first appearance
    (attribute names after '.', keyword-argument names and PY_KEEP stay), numbers '#' except integer
    dimensions (after dim=/dims= or inside DIM_CALLS)."""
    names, out, stack = {}, [], []
    toks = [t for t in _tokenize.generate_tokens(_io.StringIO(src).readline)
            if t.type not in (_tokenize.COMMENT, _tokenize.NL, _tokenize.ENCODING, _tokenize.ENDMARKER)]
    prev_type = _tokenize.NEWLINE
    for k, t in enumerate(toks):
        nxt = toks[k + 1].string if k + 1 < len(toks) else ""
        if t.type == _tokenize.STRING and prev_type in (_tokenize.NEWLINE, _tokenize.INDENT, _tokenize.DEDENT):
            prev_type = _tokenize.NEWLINE
            continue  # a docstring
        prev_type = t.type
        s = t.string
        if t.type == _tokenize.OP:
            if s in "([{":
                stack.append(out[-1] if out else "")
            elif s in ")]}" and stack:
                stack.pop()
            out.append(s)
        elif t.type == _tokenize.NAME:
            if s in PY_KEEP or (out and out[-1] == ".") or (nxt == "=" and stack):
                out.append(s)
            else:
                names.setdefault(s, f"v{len(names)}")
                out.append(names[s])
        elif t.type == _tokenize.NUMBER:
            j = len(out) - 1
            while j > 0 and (out[j] in ("(", ",", "#") or out[j].isdigit()):
                j -= 1
            in_dim = (j > 0 and out[j] == "=" and out[j - 1] in KEEP_INT_KW) or bool(stack and stack[-1] in DIM_CALLS)
            if in_dim and s.isdigit():
                out.append(s)
            else:
                if out and out[-1] == "-" and (len(out) == 1 or out[-2] in UNARY_BEFORE | {"return", "(", ",", "="}):
                    out.pop()
                out.append("#")
        elif t.type in (_tokenize.NEWLINE, _tokenize.INDENT, _tokenize.DEDENT):
            out.append({_tokenize.NEWLINE: ";", _tokenize.INDENT: "{", _tokenize.DEDENT: "}"}[t.type])
        else:
            out.append(s)
    return " ".join(out)


def canonical_torch(spec_text, shape_sig=""):
    """The canonical form of a torch2cuda reference: its Model class and the inputs' shapes/dtypes
    (get_inputs' distributions and the size values are constants)."""
    cls = spec_text[spec_text.index("class Model"):spec_text.index("def get_inputs")]
    return canonical_py(cls + "\n" + shape_sig + "\n")


def canonical_torch_hash(spec_text, shape_sig=""):
    return hashlib.sha256(canonical_torch(spec_text, shape_sig).encode()).hexdigest()[:16]
