#!/usr/bin/env node
import '../dist/emulator/cli.js';
