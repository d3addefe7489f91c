/**
 * The import rules of `src/` that `npm run check:imports` enforces (run by `npm test`): no import
 * cycle, type-only and dynamic imports included, and every import pointing down the layers —
 * model, wire and store at the bottom, then the domain (runtime context) and the service
 * providers, the CloudFormation engine, and the server, CLI and in-process API on top.
 */
const layer = (name, from, notTo) => ({ name, severity: 'error', from: { path: from }, to: { path: notTo } });

module.exports = {
  forbidden: [
    {
      name: 'no-cycle',
      comment: 'An import loop: split the module that both sides need, or pass the capability down.',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
    layer('model-is-the-bottom', '^src/model/', '^src/(wire|store|services|server|cli|index|runtime)'),
    layer('wire-below-services', '^src/wire/', '^src/(store|services|server|cli|index|runtime)'),
    layer('store-below-services', '^src/store/', '^src/(wire|services|server|cli|index|runtime)'),
    layer('runtime-below-services', '^src/runtime/', '^src/(services|server|cli|index|deploy|auth)'),
    layer('auth-below-services', '^src/auth/', '^src/(services|server|cli|index|deploy)'),
    layer('providers-below-the-server', '^src/services/', '^src/(server|cli|index|deploy)'),
    layer('server-below-the-api', '^src/server/', '^src/(cli|index|deploy)'),
    layer('deploy-below-its-callers', '^src/deploy/', '^src/(cli|index)'),
    layer('services-below-the-engine', '^src/services/(?!cloudformation/|registry\.ts)', '^src/services/cloudformation/'),
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)node_modules/' },
    includeOnly: '^src/',
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.build.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js'] },
  },
};
