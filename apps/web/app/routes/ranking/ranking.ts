/** The ranking is read 50 people at a time (take/skip). */
export const RANKING_PAGE = 50;
