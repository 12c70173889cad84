// Barrel of src/config: filled in as the area lands.
export {};
