/** The year of the footers' copyright line: read once when the page's code loads, not on every render. */
export const COPYRIGHT_YEAR = new Date().getFullYear();
