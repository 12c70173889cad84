// Barrel of src/classifier: filled in as the area lands.
export {};
