// Barrel of src/contracts: filled in as the area lands.
export {};
