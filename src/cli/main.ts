#!/usr/bin/env node
import { main } from "./program.js";
import { quietOnClosedStdout } from "./quietOnClosedStdout.js";

quietOnClosedStdout();
process.exitCode = await main(process.argv);
