/**
 * Which scope a stated preference belongs to. The fact pipeline files a user-wide habit under the global
 * scope, and phase 2 lets it into the global workspace; everything else stays with its project.
 */

/** Statements tied to the project they were made in ("in this repo ..."), which stay out of the global workspace. */
const projectQualifier = /\b(?:this|the|our) (?:repo(?:sitory)?|project|codebase|package|app|service)\b|\bhere\b/i;

/**
 * Wording that makes a statement the user's own beyond one repository: "in all my projects",
 * "I always ...", "everywhere", "in every repo". Without it a preference belongs to the project it
 * was said in ("we deploy from the release branch" is about that repository, not about the user).
 */
const USER_WIDE =
  /\b(?:in|for|across)\s+(?:all|every|each|any)\s+(?:of\s+)?(?:my|our|the)?\s*(?:projects?|repos?|repositories|codebases?|code\s+bases?)\b|\beverywhere\b|\bwherever\s+i\b|\b(?:no\s+matter|whatever)\s+(?:the|which|what)\s+(?:project|repo(?:sitory)?)\b|\bi\s+(?:always|never|generally|usually|personally)\b|\bthe\s+user\s+(?:always|never)\b|\bmy\s+(?:personal\s+)?(?:habit|preference|rule)\b/i;

/** A habit stated for every project, with nothing tying it to the one it was said in. */
export function statesUserWideHabit(text: string): boolean {
  return USER_WIDE.test(text) && !projectQualifier.test(text);
}
