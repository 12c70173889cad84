// Barrel of src/filter-run: filled in as the area lands.
export {};
