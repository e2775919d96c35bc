// A lane that dies before doing any work: the scan must import every file in its own thread.
process.exit(3);
