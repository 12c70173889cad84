// Barrel of src/judge: filled in as the area lands.
export {};
