"""PDF functions (PDF 1.7, 7.10), evaluated so that the preflight can measure the ink of what they colour: a
gradient's colours (a shading's /Function) and a spot colour's CMYK alternate (a Separation's or DeviceN's tint
transform).

Every kind is evaluated, each within bounds, so that a hostile file costs a bounded time: sampled (type 0, of any
number of inputs, multilinear between samples, at most MAX_SAMPLES values read), exponential (2), stitching (3,
at most MAX_DEPTH deep), PostScript calculator (4: a small interpreter of the operators the language has, Table
42; it has no loop, so a program runs each of its at most MAX_PROGRAM bytes once; its stack is held to the 100
entries of the language's limit, Annex C). What cannot be evaluated (a broken or too large function) raises
Unmeasured, which the preflight says rather than taking as no ink.

`evaluate_many` evaluates exponential and stitching functions over many inputs at once (numpy, the same
arithmetic), for a spot-colour picture of more colours than are evaluated one by one.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from typing import Any

#: The most values of a sampled function (type 0) read: a gradient's table is some hundreds of samples (256 in
#: Illustrator's and Ghostscript's), a tint transform of four inks 17^4 x 4 (some 334 000); a larger table is
#: not evaluated (said).
MAX_SAMPLES = 1 << 20
#: The most inputs of a sampled function: the corners interpolated between are 2^inputs (DeviceN allows 32 inks,
#: designers' files hold a few).
MAX_INPUTS = 8
#: The longest PostScript calculator program read, in bytes: a tint transform of a few inks is some hundreds.
MAX_PROGRAM = 65536
#: How deep functions may nest (stitching functions of stitching functions): any real one is one or two deep.
MAX_DEPTH = 8
#: The PostScript calculator's stack limit (PDF 1.7, Annex C: "operand stack ... 100").
MAX_STACK = 100


class Unmeasured(Exception):
    """A function the preflight does not evaluate: broken, of an unknown type, or beyond a bound above."""


def evaluate(function: Any, inputs: list[float], depth: int = 0) -> list[float]:
    """`function` (a PDF function object) at `inputs`: inputs clipped to its /Domain, outputs to its /Range."""
    if depth > MAX_DEPTH:
        raise Unmeasured
    function = function.get_object()
    kind = int(function.get("/FunctionType", -1))
    domain = [float(v) for v in function.get("/Domain", ())]
    if len(domain) < 2 * len(inputs):
        raise Unmeasured
    x = [min(max(v, min(domain[2 * i], domain[2 * i + 1])), max(domain[2 * i], domain[2 * i + 1]))
         for i, v in enumerate(inputs)]
    if kind == 0:
        out = _sampled(function, x, domain)
    elif kind == 2 and len(x) == 1:
        c0 = [float(v) for v in function.get("/C0", (0.0,))]
        c1 = [float(v) for v in function.get("/C1", (1.0,))]
        power = x[0] ** float(function.get("/N", 1))
        out = [a + power * (b - a) for a, b in zip(c0, c1)]
    elif kind == 3 and len(x) == 1:
        out = _stitching(function, x[0], domain, depth)
    elif kind == 4:
        out = _calculator(function, x)
    else:
        raise Unmeasured
    ranges = [float(v) for v in function.get("/Range", ())]
    if ranges:
        out = [min(max(v, ranges[2 * i]), ranges[2 * i + 1]) if 2 * i + 1 < len(ranges) else v
               for i, v in enumerate(out)]
    return out


def evaluate_all(functions: Any, inputs: list[float]) -> list[float]:
    """A colour given by one function of n outputs, or by an array of n functions of one output each (a shading's
    /Function, PDF 1.7, 8.7.4.5)."""
    functions = functions.get_object()
    if isinstance(functions, list):
        return [evaluate(f, inputs)[0] for f in functions]
    return evaluate(functions, inputs)


def _stitching(function: Any, t: float, domain: list[float], depth: int) -> list[float]:
    bounds = [float(b) for b in function.get("/Bounds", ())]
    parts = function["/Functions"]
    k = next((i for i, b in enumerate(bounds) if t < b), len(bounds))
    low = domain[0] if k == 0 else bounds[k - 1]
    high = domain[1] if k == len(bounds) else bounds[k]
    encode = [float(v) for v in function.get("/Encode", [0, 1] * len(parts))]
    e0, e1 = encode[2 * k], encode[2 * k + 1]
    return evaluate(parts[k], [e0 + (t - low) * (e1 - e0) / (high - low) if high > low else e0], depth + 1)


def _sampled(function: Any, x: list[float], domain: list[float]) -> list[float]:
    """A sampled function (7.10.2): each input encoded into its table's index range, the outputs interpolated
    multilinearly between the 2^m samples around it, decoded to /Decode (else /Range)."""
    sizes = [int(v) for v in function["/Size"]]
    bits = int(function["/BitsPerSample"])
    ranges = [float(v) for v in function["/Range"]]
    decode = [float(v) for v in function.get("/Decode", ranges)]
    outputs = len(ranges) // 2
    count = outputs * math.prod(sizes)
    if len(sizes) != len(x) or not 0 < len(x) <= MAX_INPUTS or bits not in (1, 2, 4, 8, 12, 16, 24, 32) \
            or min(sizes) < 1 or not 0 < count <= MAX_SAMPLES:
        raise Unmeasured
    data = function.get_data()
    if len(data) * 8 < count * bits:
        raise Unmeasured
    encode = [float(v) for v in function.get("/Encode", [v for s in sizes for v in (0, s - 1)])]
    low_index, fractions = [], []
    for i, v in enumerate(x):
        d0, d1 = domain[2 * i], domain[2 * i + 1]
        e = encode[2 * i] + (v - d0) * (encode[2 * i + 1] - encode[2 * i]) / (d1 - d0) if d1 != d0 else encode[2 * i]
        e = min(max(e, 0.0), sizes[i] - 1.0)
        below = min(int(e), sizes[i] - 2) if sizes[i] > 1 else 0
        low_index.append(below)
        fractions.append(e - below if sizes[i] > 1 else 0.0)
    top = (1 << bits) - 1

    def sample(index: int) -> float:
        at = index * bits
        first, last = at // 8, (at + bits - 1) // 8
        word: int = int.from_bytes(bytes(data[first:last + 1]), "big")
        return float((word >> ((last + 1) * 8 - at - bits)) & top) / top

    found = []
    for out in range(outputs):
        value = 0.0
        for corner in range(2 ** len(x)):
            weight, index, stride = 1.0, 0, 1
            for i in range(len(x)):
                up = corner >> i & 1
                weight *= fractions[i] if up else 1.0 - fractions[i]
                index += (low_index[i] + up) * stride
                stride *= sizes[i]
            if weight:
                value += weight * sample(index * outputs + out)
        d0, d1 = decode[2 * out], decode[2 * out + 1]
        found.append(d0 + value * (d1 - d0))
    return found


#: A PostScript calculator program's tokens: braces, numbers (integers and reals, as the language writes them) and
#: operators.
_TOKEN = re.compile(rb"\s*(?:(?P<brace>[{}])|(?P<number>[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)"
                    rb"|(?P<word>[a-z]+)|(?P<other>\S))")
Program = list[Any]  # numbers, operator names and nested programs (the bodies of if and ifelse)


def _parse(text: bytes) -> Program:
    """The program `{ ... }` as nested lists; anything outside the language raises Unmeasured."""
    stack: list[Program] = [[]]
    position = 0
    while position < len(text):
        found = _TOKEN.match(text, position)
        if found is None:
            break  # only white space is left
        position = found.end()
        if found["brace"] == b"{":
            stack.append([])
        elif found["brace"] == b"}":
            if len(stack) < 2:
                raise Unmeasured
            inner = stack.pop()
            stack[-1].append(inner)
        elif found["number"] is not None:
            number = found["number"].decode()
            stack[-1].append(float(number) if any(c in number for c in ".eE") else int(number))
        elif found["word"] is not None and found["word"].decode() in _OPERATORS:
            stack[-1].append(found["word"].decode())
        else:
            raise Unmeasured
    if len(stack) != 1 or len(stack[0]) != 1 or not isinstance(stack[0][0], list):
        raise Unmeasured
    program: Program = stack[0][0]
    return program


def _number(value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise Unmeasured
    return value


def _integer(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise Unmeasured
    return value


def _arithmetic(stack: list[Any], name: str) -> None:
    if name in _UNARY:
        stack.append(_UNARY[name](_number(stack.pop())))
        return
    b, a = stack.pop(), stack.pop()
    if name in ("and", "or", "xor"):
        if isinstance(a, bool) and isinstance(b, bool):
            stack.append({"and": a and b, "or": a or b, "xor": a != b}[name])
        else:
            stack.append({"and": _integer(a) & _integer(b), "or": _integer(a) | _integer(b),
                          "xor": _integer(a) ^ _integer(b)}[name])
    elif name in ("eq", "ne"):
        stack.append((a == b) == (name == "eq"))
    elif name in _COMPARE:
        stack.append(_COMPARE[name](_number(a), _number(b)))
    elif name in ("idiv", "mod", "bitshift"):
        x, y = _integer(a), _integer(b)
        if name == "bitshift":
            stack.append(x << y if 0 <= y < 32 else x >> -y if -32 < y < 0 else 0 if y else x)
        elif y == 0:
            raise Unmeasured
        else:
            quotient = abs(x) // abs(y) * (1 if (x < 0) == (y < 0) else -1)  # truncated towards zero
            stack.append(quotient if name == "idiv" else x - quotient * y)
    else:
        x2, y2 = _number(a), _number(b)
        if name == "div" and y2 == 0:
            raise Unmeasured
        # only the operator's own result computed: `0 -1 add` is -1, though 0 ** -1 has none
        operations: dict[str, Callable[[], Any]] = {
            "add": lambda: x2 + y2, "sub": lambda: x2 - y2, "mul": lambda: x2 * y2, "div": lambda: x2 / y2,
            "exp": lambda: float(x2) ** float(y2), "atan": lambda: math.degrees(math.atan2(x2, y2)) % 360.0}
        value = operations[name]()
        if isinstance(value, complex) or (isinstance(value, float) and not math.isfinite(value)):
            raise Unmeasured
        integers = name in ("add", "sub", "mul") and isinstance(a, int) and isinstance(b, int)
        stack.append(int(value) if integers else float(value))


_UNARY: dict[str, Callable[[float], Any]] = {
    "abs": abs, "neg": lambda v: -v, "ceiling": lambda v: float(math.ceil(v)) if isinstance(v, float) else v,
    "floor": lambda v: float(math.floor(v)) if isinstance(v, float) else v,
    "round": lambda v: float(math.floor(v + 0.5)) if isinstance(v, float) else v,
    "truncate": lambda v: float(math.trunc(v)) if isinstance(v, float) else v,
    "sqrt": lambda v: math.sqrt(v), "sin": lambda v: math.sin(math.radians(v)),
    "cos": lambda v: math.cos(math.radians(v)), "ln": lambda v: math.log(v), "log": lambda v: math.log10(v),
    "cvi": lambda v: int(v), "cvr": float}
_COMPARE: dict[str, Callable[[float, float], bool]] = {
    "ge": lambda a, b: a >= b, "gt": lambda a, b: a > b, "le": lambda a, b: a <= b, "lt": lambda a, b: a < b}
#: The operators of the PostScript calculator (PDF 1.7, Table 42).
_OPERATORS = frozenset({*_UNARY, *_COMPARE, "add", "sub", "mul", "div", "idiv", "mod", "exp", "atan", "and", "or",
                        "xor", "not", "bitshift", "eq", "ne", "true", "false", "if", "ifelse", "copy", "dup",
                        "exch", "index", "pop", "roll"})


def _run(program: Program, stack: list[Any]) -> None:
    for item in program:
        if len(stack) > MAX_STACK:
            raise Unmeasured
        if not isinstance(item, str):
            stack.append(item)
        elif item in ("true", "false"):
            stack.append(item == "true")
        elif item == "not":
            value = stack.pop()
            stack.append(not value if isinstance(value, bool) else ~_integer(value))
        elif item == "dup":
            stack.append(stack[-1])
        elif item == "pop":
            stack.pop()
        elif item == "exch":
            stack[-1], stack[-2] = stack[-2], stack[-1]
        elif item == "copy":
            n = _integer(stack.pop())
            if not 0 <= n <= len(stack):
                raise Unmeasured
            stack.extend(stack[len(stack) - n:])
        elif item == "index":
            n = _integer(stack.pop())
            if not 0 <= n < len(stack):
                raise Unmeasured
            stack.append(stack[-1 - n])
        elif item == "roll":
            j, n = _integer(stack.pop()), _integer(stack.pop())
            if not 0 <= n <= len(stack):
                raise Unmeasured
            if n:
                top = stack[len(stack) - n:]
                j %= n
                stack[len(stack) - n:] = top[n - j:] + top[:n - j]
        elif item in ("if", "ifelse"):
            bodies = [stack.pop() for _ in range(1 if item == "if" else 2)][::-1]
            condition = stack.pop()
            if not isinstance(condition, bool) or not all(isinstance(b, list) for b in bodies):
                raise Unmeasured
            chosen = bodies[0] if condition else bodies[1] if item == "ifelse" else None
            if chosen is not None:
                _run(chosen, stack)
        else:
            _arithmetic(stack, item)


def _calculator(function: Any, x: list[float]) -> list[float]:
    """A PostScript calculator function (7.10.5): its program run on the inputs; its outputs the numbers left on
    the stack, as many as /Range says."""
    ranges = function.get("/Range", ())
    text = function.get_data()
    if not ranges or len(text) > MAX_PROGRAM:
        raise Unmeasured
    stack: list[Any] = list(x)
    try:
        _run(_parse(text), stack)
    except (IndexError, ValueError, OverflowError, ZeroDivisionError, TypeError, RecursionError):
        raise Unmeasured from None
    outputs = len(ranges) // 2
    if len(stack) < outputs:
        raise Unmeasured
    return [float(_number(v)) for v in stack[len(stack) - outputs:]]


def evaluate_many(function: Any, inputs: Any, depth: int = 0) -> Any:
    """`function` at many inputs at once (a numpy array of one row of inputs each): the outputs, one row each, by the
    same arithmetic as `evaluate`, in numpy's float64 (so the same figures, bar the last bit of a power). For the
    kinds whose arithmetic is the same for every input: exponential (2) and stitching (3) of those; another kind
    (a sampled table, a PostScript program) raises Unmeasured, being evaluated input by input."""
    import numpy as np

    if depth > MAX_DEPTH:
        raise Unmeasured
    function = function.get_object()
    kind = int(function.get("/FunctionType", -1))
    domain = [float(v) for v in function.get("/Domain", ())]
    if inputs.ndim != 2 or inputs.shape[1] != 1 or len(domain) < 2 or kind not in (2, 3):
        raise Unmeasured(f"a tint transform of type {kind}, evaluated colour by colour")
    x = np.clip(inputs[:, 0], min(domain[0], domain[1]), max(domain[0], domain[1]))
    if kind == 2:
        c0 = [float(v) for v in function.get("/C0", (0.0,))]
        c1 = [float(v) for v in function.get("/C1", (1.0,))]
        power = x ** float(function.get("/N", 1))
        out = np.stack([a + power * (b - a) for a, b in zip(c0, c1)], axis=1)
    else:
        out = _stitching_many(function, x, domain, depth)
    ranges = [float(v) for v in function.get("/Range", ())]
    for i in range(min(out.shape[1], len(ranges) // 2)):
        out[:, i] = np.minimum(np.maximum(out[:, i], ranges[2 * i]), ranges[2 * i + 1])
    return out


def _stitching_many(function: Any, x: Any, domain: list[float], depth: int) -> Any:
    """A stitching function (type 3) at many inputs (already within its domain): each input to its piece as
    _stitching does, every piece evaluated once over its inputs."""
    import numpy as np

    bounds = [float(b) for b in function.get("/Bounds", ())]
    parts = function["/Functions"]
    encode = [float(v) for v in function.get("/Encode", [0, 1] * len(parts))]
    # each input's piece: the first bound it is below (as _stitching's `t < b`), else the last piece
    piece = np.searchsorted(np.array(bounds), x, side="right") if bounds else np.zeros(len(x), dtype=int)
    out: Any = None
    for k in range(len(bounds) + 1):
        chosen = piece == k
        if not chosen.any():
            continue
        low = domain[0] if k == 0 else bounds[k - 1]
        high = domain[1] if k == len(bounds) else bounds[k]
        e0, e1 = encode[2 * k], encode[2 * k + 1]
        t = x[chosen]
        inner = e0 + (t - low) * (e1 - e0) / (high - low) if high > low else np.full(len(t), e0)
        values = evaluate_many(parts[k], inner[:, None], depth + 1)
        if out is None:
            out = np.zeros((len(x), values.shape[1]))
        if values.shape[1] != out.shape[1]:
            raise Unmeasured("a stitching function whose pieces give different numbers of outputs")
        out[chosen] = values
    if out is None:
        raise Unmeasured
    return out
