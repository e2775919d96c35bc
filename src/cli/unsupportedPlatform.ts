/**
 * Why cairn refuses to run on this platform, or undefined where it runs. Windows is refused
 * (docs/decisions/windows.md): cairn publishes each memory workspace by atomically replacing a
 * symbolic link, which Windows allows only with Developer Mode or administrator rights and cannot
 * replace over an existing folder, and no Windows machine tests it. npm refuses the install there
 * already (package.json `os`); this line is for an install forced past that or a copied folder.
 */
export function unsupportedPlatformProblem(platform: NodeJS.Platform): string | undefined {
  if (platform !== "win32") return undefined;
  return "cairn does not run on Windows (it publishes memory through symbolic links, and no Windows machine tests it); run it inside WSL (Windows Subsystem for Linux) instead";
}
