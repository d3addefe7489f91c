// The start-up floor: a bare fastify server with one route, printing its address when listening.
import Fastify from 'fastify';

const app = Fastify();
app.get('/_overcast/health', async () => ({ status: 'running' }));
await app.listen({ host: '127.0.0.1', port: 0 });
process.stdout.write(`listening on http://127.0.0.1:${app.server.address().port}\n`);
process.on('SIGTERM', () => app.close().then(() => process.exit(0)));
