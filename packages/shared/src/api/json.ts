/** Any JSON value (metadata fields hold these). */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
