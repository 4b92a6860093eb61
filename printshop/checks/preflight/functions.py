"""PDF functions (tint transforms and shadings): sampled, exponential, stitching and PostScript
calculator functions, evaluated as a viewer would, to know the ink a colour becomes."""

from __future__ import annotations

import math
import re
from collections.abc import Callable

import pikepdf


# --- PDF functions (tint transforms and shadings)
# ----------------------------------------------------
class Function:
    """A PDF function of type 0 (sampled: linear between samples for one input, nearest sample for
    more), 2 (exponential), 3 (stitching) or 4 (PostScript calculator), or an array of them."""

    def __init__(self, obj):
        self.parts = [Function(f) for f in obj] if isinstance(obj, pikepdf.Array) else None
        if self.parts is not None:
            return
        self.type = int(obj.get("/FunctionType"))
        self.domain = [float(v) for v in obj.get("/Domain", [0, 1])]
        self.range = [float(v) for v in obj.get("/Range", [])] or None
        if self.type == 0:
            self.size = [int(v) for v in obj.Size]
            self.bits = int(obj.BitsPerSample)
            self.encode = [
                float(v) for v in obj.get("/Encode", [x for s in self.size for x in (0, s - 1)])
            ]
            self.decode = [float(v) for v in obj.get("/Decode", self.range)]
            self.outputs = len(self.range) // 2
            count = math.prod(self.size) * self.outputs
            self.samples = _unpack_samples(obj.read_bytes(), self.bits, count)
        elif self.type == 2:
            self.c0 = [float(v) for v in obj.get("/C0", [0])]
            self.c1 = [float(v) for v in obj.get("/C1", [1])]
            self.exponent = float(obj.N)
        elif self.type == 3:
            self.functions = [Function(f) for f in obj.Functions]
            self.bounds = [float(v) for v in obj.Bounds]
            self.encode = [float(v) for v in obj.Encode]
        elif self.type == 4:
            self.program = _parse_calculator(obj.read_bytes().decode("latin-1"))
        else:
            raise ValueError(f"function type {self.type}")

    def __call__(self, inputs) -> list[float]:
        inputs = [float(v) for v in inputs]
        if self.parts is not None:
            return [part(inputs)[0] for part in self.parts]
        inputs = [
            min(max(x, self.domain[2 * i]), self.domain[2 * i + 1])
            if 2 * i + 1 < len(self.domain)
            else x
            for i, x in enumerate(inputs)
        ]
        if self.type == 0:
            out = self._sampled(inputs)
        elif self.type == 2:
            x = inputs[0]
            out = [a + (x**self.exponent) * (b - a) for a, b in zip(self.c0, self.c1)]
        elif self.type == 3:
            x = inputs[0]
            lo, hi = self.domain[0], self.domain[1]
            edges = [lo] + self.bounds + [hi]
            k = next((i for i, bound in enumerate(self.bounds) if x < bound), len(self.bounds))
            a, b = edges[k], edges[k + 1]
            e0, e1 = self.encode[2 * k], self.encode[2 * k + 1]
            out = self.functions[k]([e0 + (x - a) * (e1 - e0) / (b - a) if b != a else e0])
        else:
            stack = list(inputs)
            _run_calculator(self.program, stack)
            out = stack
        if self.range:
            out = [
                min(max(v, self.range[2 * i]), self.range[2 * i + 1])
                for i, v in enumerate(out[: len(self.range) // 2])
            ]
        return out

    def _sampled(self, inputs) -> list[float]:
        top = (1 << self.bits) - 1
        positions = []
        for i, x in enumerate(inputs[: len(self.size)]):
            d0, d1 = self.domain[2 * i], self.domain[2 * i + 1]
            e0, e1 = self.encode[2 * i], self.encode[2 * i + 1]
            e = e0 + (x - d0) * (e1 - e0) / (d1 - d0) if d1 != d0 else e0
            positions.append(min(max(e, 0), self.size[i] - 1))

        def sample(index: list[int]) -> list[float]:
            offset, stride = 0, 1
            for i, k in enumerate(index):
                offset += k * stride
                stride *= self.size[i]
            raw = self.samples[offset * self.outputs : (offset + 1) * self.outputs]
            return [
                self.decode[2 * j] + v * (self.decode[2 * j + 1] - self.decode[2 * j]) / top
                for j, v in enumerate(raw)
            ]

        if len(positions) == 1:
            low = int(math.floor(positions[0]))
            high = min(low + 1, self.size[0] - 1)
            t = positions[0] - low
            a, b = sample([low]), sample([high])
            return [x + t * (y - x) for x, y in zip(a, b)]
        return sample([int(round(p)) for p in positions])


def _unpack_samples(data: bytes, bits: int, count: int) -> list[int]:
    if bits == 8:
        return list(data[:count])
    values: list[int] = []
    accumulator, held = 0, 0
    for byte in data:
        accumulator = (accumulator << 8) | byte
        held += 8
        while held >= bits and len(values) < count:
            held -= bits
            values.append((accumulator >> held) & ((1 << bits) - 1))
        accumulator &= (1 << held) - 1
        if len(values) >= count:
            break
    return values


def _parse_calculator(text: str):
    tokens = re.findall(r"[{}]|[^\s{}]+", text)
    position = 0

    def block():
        nonlocal position
        items = []
        while position < len(tokens):
            token = tokens[position]
            position += 1
            if token == "{":
                items.append(block())
            elif token == "}":
                return items
            else:
                try:
                    items.append(float(token))
                except ValueError:
                    items.append(token)
        return items

    program = block()
    return program[0] if len(program) == 1 and isinstance(program[0], list) else program


_CALCULATOR: dict[str, tuple[int, Callable[..., list]]] = {
    "add": (2, lambda a, b: [a + b]),
    "sub": (2, lambda a, b: [a - b]),
    "mul": (2, lambda a, b: [a * b]),
    "div": (2, lambda a, b: [a / b if b else 0.0]),
    "idiv": (2, lambda a, b: [float(int(a / b)) if b else 0.0]),
    "mod": (2, lambda a, b: [float(math.fmod(int(a), int(b))) if int(b) else 0.0]),
    "neg": (1, lambda a: [-a]),
    "abs": (1, lambda a: [abs(a)]),
    "ceiling": (1, lambda a: [float(math.ceil(a))]),
    "floor": (1, lambda a: [float(math.floor(a))]),
    "round": (1, lambda a: [float(math.floor(a + 0.5))]),
    "truncate": (1, lambda a: [float(int(a))]),
    "sqrt": (1, lambda a: [math.sqrt(max(a, 0))]),
    "sin": (1, lambda a: [math.sin(math.radians(a))]),
    "cos": (1, lambda a: [math.cos(math.radians(a))]),
    "atan": (2, lambda a, b: [math.degrees(math.atan2(a, b)) % 360]),
    "exp": (2, lambda a, b: [a**b]),
    "ln": (1, lambda a: [math.log(a) if a > 0 else 0.0]),
    "log": (1, lambda a: [math.log10(a) if a > 0 else 0.0]),
    "cvi": (1, lambda a: [float(int(a))]),
    "cvr": (1, lambda a: [a]),
    "eq": (2, lambda a, b: [a == b]),
    "ne": (2, lambda a, b: [a != b]),
    "gt": (2, lambda a, b: [a > b]),
    "ge": (2, lambda a, b: [a >= b]),
    "lt": (2, lambda a, b: [a < b]),
    "le": (2, lambda a, b: [a <= b]),
    "and": (2, lambda a, b: [a and b if isinstance(a, bool) else float(int(a) & int(b))]),
    "or": (2, lambda a, b: [a or b if isinstance(a, bool) else float(int(a) | int(b))]),
    "xor": (2, lambda a, b: [a != b if isinstance(a, bool) else float(int(a) ^ int(b))]),
    "not": (1, lambda a: [not a if isinstance(a, bool) else float(~int(a))]),
    "bitshift": (2, lambda a, b: [float(int(a) << int(b) if b >= 0 else int(a) >> -int(b))]),
    "pop": (1, lambda a: []),
    "exch": (2, lambda a, b: [b, a]),
    "dup": (1, lambda a: [a, a]),
}


def _run_calculator(program, stack: list) -> None:
    for item in program:
        if isinstance(item, list):
            stack.append(item)
        elif isinstance(item, float):
            stack.append(item)
        elif item in ("true", "false"):
            stack.append(item == "true")
        elif item == "if":
            body, condition = stack.pop(), stack.pop()
            if condition:
                _run_calculator(body, stack)
        elif item == "ifelse":
            other, body, condition = stack.pop(), stack.pop(), stack.pop()
            _run_calculator(body if condition else other, stack)
        elif item == "copy":
            n = int(stack.pop())
            stack.extend(stack[-n:] if n else [])
        elif item == "index":
            n = int(stack.pop())
            stack.append(stack[-1 - n])
        elif item == "roll":
            j, n = int(stack.pop()), int(stack.pop())
            if n:
                part = stack[-n:]
                j %= n
                stack[-n:] = part[-j:] + part[:-j] if j else part
        elif item in _CALCULATOR:
            arity, operation = _CALCULATOR[item]
            operands = stack[-arity:]
            del stack[-arity:]
            stack.extend(operation(*operands))
        else:
            raise ValueError(f"unknown calculator operator {item}")
