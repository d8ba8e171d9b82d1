// Vitest setup file: every test file starts with the registered providers installed, as every
// entry point does (importing src/providers/registry.ts installs them). Unit tests of the
// domain read the catalogue's providers without building services.
import '../../src/providers/registry.js';
