/** Products: the catalogue, licenses, images, previews, the deliverable file (ADDENDUM Part 2 "Marketplace"). */
export const productsContract = {};
