// Barrel of src/eligibility: filled in as the area lands.
export {};
