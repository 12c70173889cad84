// The encodings of the Collector's kafka exporter that the OTLP input reads. Apart from the
// decoder, so that the config schema names them without loading the protobuf definitions.
export const OTLP_ENCODINGS = ['otlp_proto', 'otlp_json'] as const;
export type OtlpEncoding = (typeof OTLP_ENCODINGS)[number];
