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
