import {
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readlinkSync,
  renameSync,
  rmSync,
  symlinkSync,
} from "node:fs";
import { basename, dirname, join, relative, resolve } from "node:path";
import { nodeCrypto } from "../util/nodeCrypto.js";

/**
 * A directory that changes all at once. The public path is a symbolic link to one immutable version
 * folder; a new version is prepared beside it and published by atomically replacing the link, so a
 * reader sees the old files or the new ones, never a mix, and a failed run leaves the old version live.
 */
export class VersionedDir {
  private readonly versions: string;

  constructor(readonly path: string) {
    this.versions = join(dirname(path), ".versions", basename(path));
  }

  /** The live version folder, or undefined before the first publish. */
  current(): string | undefined {
    try {
      if (!lstatSync(this.path).isSymbolicLink()) return this.path;
      return resolve(dirname(this.path), readlinkSync(this.path));
    } catch {
      return undefined;
    }
  }

  /**
   * A fresh staging folder holding a copy of the live version, or empty (before the first publish, or
   * with `empty`: a rebuild that must not carry anything of the live version over).
   */
  stage(options: { empty?: boolean } = {}): string {
    mkdirSync(this.versions, { recursive: true, mode: 0o700 });
    const staging = join(this.versions, `${Date.now()}-${nodeCrypto().randomBytes(4).toString("hex")}`);
    const live = options.empty ? undefined : this.current();
    if (live && existsSync(live)) cpSync(live, staging, { recursive: true });
    else mkdirSync(staging, { mode: 0o700 });
    return staging;
  }

  /** Makes `staging` the live version with one rename, then removes versions no longer live. */
  publish(staging: string): void {
    const link = join(
      dirname(this.path),
      `.${basename(this.path)}.${nodeCrypto().randomBytes(4).toString("hex")}.link`,
    );
    // Relative, so the memory root can be moved or backed up as a whole.
    symlinkSync(relative(dirname(this.path), staging), link);
    if (existsSync(this.path) && !lstatSync(this.path).isSymbolicLink()) {
      // A plain folder from an older layout: move it aside so the link can take its place.
      renameSync(this.path, join(this.versions, `legacy-${Date.now()}`));
    }
    renameSync(link, this.path);
    this.prune(staging);
  }

  /** Throws a staging folder away (a failed or invalid run). */
  discard(staging: string): void {
    rmSync(staging, { recursive: true, force: true });
  }

  /** Deletes everything (memory clear). */
  remove(): void {
    rmSync(this.path, { recursive: true, force: true });
    rmSync(this.versions, { recursive: true, force: true });
  }

  private prune(keep: string): void {
    let entries: string[];
    try {
      entries = readdirSync(this.versions);
    } catch {
      return;
    }
    for (const entry of entries) {
      const full = join(this.versions, entry);
      if (full !== keep) rmSync(full, { recursive: true, force: true });
    }
  }
}
