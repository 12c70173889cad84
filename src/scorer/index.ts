// Barrel of src/scorer: filled in as the area lands.
export {};
