// Trace and span ids as the otlp_proto reader (read-otlp-proto.ts) finds them: bytes in the
// request's buffer, checked and compared where they lie and hexed straight from there, with no
// Buffer per id. Ids are read for every span of the input, so the hex is built from a table of
// character codes rather than by Buffer#toString('hex') (docs/benchmarks.md has the figures).

/** Whether the `length` bytes at `at` are an id of `size` bytes that is not all zeros (the W3C invalid id). */
export function isId(buffer: Buffer, at: number, length: number, size: number): boolean {
  if (length !== size) return false;
  for (let index = at; index < at + size; index += 1) if (buffer[index] !== 0) return true;
  return false;
}

/** Whether the 16 bytes of two trace ids are the same. */
export function sameId(buffer: Buffer, a: number, b: number): boolean {
  for (let index = 0; index < 16; index += 1) if (buffer[a + index] !== buffer[b + index]) return false;
  return true;
}

/** The two hex digits of each byte value, as character codes: [high, low] at 2 × byte. */
const HEX_CODES = new Uint16Array(512);
for (let byte = 0; byte < 256; byte += 1) {
  const digits = byte.toString(16).padStart(2, '0');
  HEX_CODES[2 * byte] = digits.charCodeAt(0);
  HEX_CODES[2 * byte + 1] = digits.charCodeAt(1);
}

/**
 * Eight bytes from `start` as lowercase hex, in one string: a third of Buffer#toString('hex')'s
 * time for an id this short (a span id, half a trace id), which goes through the C++ binding.
 */
export function hex8(buffer: Buffer, start: number): string {
  const c = HEX_CODES;
  const b0 = 2 * buffer[start]!, b1 = 2 * buffer[start + 1]!, b2 = 2 * buffer[start + 2]!, b3 = 2 * buffer[start + 3]!;
  const b4 = 2 * buffer[start + 4]!, b5 = 2 * buffer[start + 5]!, b6 = 2 * buffer[start + 6]!, b7 = 2 * buffer[start + 7]!;
  return String.fromCharCode(c[b0]!, c[b0 + 1]!, c[b1]!, c[b1 + 1]!, c[b2]!, c[b2 + 1]!, c[b3]!, c[b3 + 1]!, c[b4]!, c[b4 + 1]!, c[b5]!, c[b5 + 1]!, c[b6]!, c[b6 + 1]!, c[b7]!, c[b7 + 1]!);
}

/** Sixteen bytes from `start` as lowercase hex, in one flat string (two hex8 joined would be a rope, flattened again when the id is first looked up). */
export function hex16(buffer: Buffer, start: number): string {
  const c = HEX_CODES;
  const b0 = 2 * buffer[start]!, b1 = 2 * buffer[start + 1]!, b2 = 2 * buffer[start + 2]!, b3 = 2 * buffer[start + 3]!;
  const b4 = 2 * buffer[start + 4]!, b5 = 2 * buffer[start + 5]!, b6 = 2 * buffer[start + 6]!, b7 = 2 * buffer[start + 7]!;
  const b8 = 2 * buffer[start + 8]!, b9 = 2 * buffer[start + 9]!, b10 = 2 * buffer[start + 10]!, b11 = 2 * buffer[start + 11]!;
  const b12 = 2 * buffer[start + 12]!, b13 = 2 * buffer[start + 13]!, b14 = 2 * buffer[start + 14]!, b15 = 2 * buffer[start + 15]!;
  // prettier-ignore
  return String.fromCharCode(
    c[b0]!, c[b0 + 1]!, c[b1]!, c[b1 + 1]!, c[b2]!, c[b2 + 1]!, c[b3]!, c[b3 + 1]!, c[b4]!, c[b4 + 1]!, c[b5]!, c[b5 + 1]!, c[b6]!, c[b6 + 1]!, c[b7]!, c[b7 + 1]!,
    c[b8]!, c[b8 + 1]!, c[b9]!, c[b9 + 1]!, c[b10]!, c[b10 + 1]!, c[b11]!, c[b11 + 1]!, c[b12]!, c[b12 + 1]!, c[b13]!, c[b13 + 1]!, c[b14]!, c[b14 + 1]!, c[b15]!, c[b15 + 1]!,
  );
}
