// Barrel of src/utils: filled in as the area lands.
export {};
