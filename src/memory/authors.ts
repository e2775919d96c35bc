/**
 * The author (`who`) the fact pipeline writes on the memories it extracts from sessions. Everything
 * else was stored through remember (by the user, or an agent on the user's behalf) or a person's edit.
 */
export const FACT_PIPELINE_WHO = "fact-pipeline";
