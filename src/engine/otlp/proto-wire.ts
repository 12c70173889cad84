// The wire-format steps the otlp_proto reader (read-otlp-proto.ts) takes between protobufjs'
// Reader calls: a nested message's bounds, a bytes field passed over in place, a fixed64 time read
// as two halves. Each keeps the reader where the generated decoder would leave it, and allocates
// nothing: the bytes stay in the request's buffer and are read where they lie.
import type protobuf from 'protobufjs/minimal.js';
import { nanosToMs } from './span-parts.ts';

export type Reader = protobuf.Reader;

/** A nested message's end, the reader at its first field. */
export function delimitedEnd(reader: Reader): number {
  const length = reader.uint32();
  return reader.pos + length;
}

/** A bytes field skipped over (as reader.bytes() reads it: refused when it runs past the buffer); returns where its bytes start. */
export function skipBytes(reader: Reader): number {
  const length = reader.uint32();
  const start = reader.pos;
  reader.skip(length);
  return start;
}

/** A fixed64 of nanoseconds since the epoch → milliseconds: the two halves, without a Long per value. */
export function fixed64Ms(reader: Reader): number {
  const low = reader.fixed32();
  const high = reader.fixed32();
  return nanosToMs(high, low);
}
