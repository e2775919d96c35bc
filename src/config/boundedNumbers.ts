import { z } from "zod";

/** A setting that is a whole number in [min, max], `fallback` when absent. */
export const int = (min: number, max: number, fallback: number) => z.number().int().min(min).max(max).default(fallback);

/** A setting that is a number in [min, max], `fallback` when absent. */
export const num = (min: number, max: number, fallback: number) => z.number().min(min).max(max).default(fallback);
