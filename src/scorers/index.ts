// Barrel of src/scorers: filled in as the area lands.
export {};
