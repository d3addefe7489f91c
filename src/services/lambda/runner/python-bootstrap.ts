/**
 * The program every Python function's worker runs, as text (the build copies no .py files; the
 * runner writes it into its runtime directory). It imports the handler (`module.function`, dotted
 * or slashed module paths) from the code directory, reads one invoke a line from stdin, calls
 * `handler(event, context)` with Lambda's context object, and writes the result or Lambda's Python
 * error shape (`errorMessage`, `errorType`, `requestId`, `stackTrace`) as a JSON line to fd 3;
 * print() and logging go to stdout, which the parent logs. A watchdog thread ends the process when
 * its parent is gone. `/opt/...` paths that layers install into (the CDK's BucketDeployment runs
 * `/opt/awscli/aws`) are mapped to the function's layer directory, with the script run by this
 * interpreter rather than its `#!/var/lang/bin/python` line.
 */
export const PYTHON_BOOTSTRAP = String.raw`
import importlib, json, os, subprocess, sys, threading, time, traceback

out = os.fdopen(3, 'w', buffering=1)
task_root = os.getcwd()
sys.path.insert(0, task_root)
opt = os.environ.get('OVERCAST_LAMBDA_OPT')
if opt:
    sys.path[1:1] = [os.path.join(opt, 'python'), os.path.join(opt, 'python', 'lib', 'python%d.%d' % sys.version_info[:2], 'site-packages')]

def _watch(ppid):
    while True:
        if os.getppid() != ppid:
            os._exit(1)
        time.sleep(0.5)

threading.Thread(target=_watch, args=(os.getppid(),), daemon=True).start()

if opt:
    _popen_init = subprocess.Popen.__init__
    def _mapped(arg):
        if isinstance(arg, str) and arg.startswith('/opt/'):
            return os.path.join(opt, arg[5:])
        return arg
    def _init(self, args, *rest, **kwargs):
        if isinstance(args, (list, tuple)) and args:
            args = [_mapped(a) for a in args]
            if args[0].startswith(opt):
                try:
                    with open(args[0], 'rb') as f:
                        if f.read(2) == b'#!':
                            args = [sys.executable] + args
                except OSError:
                    pass
        elif isinstance(args, str) and '/opt/' in args:
            args = args.replace('/opt/', opt.rstrip('/') + '/')
        _popen_init(self, args, *rest, **kwargs)
    subprocess.Popen.__init__ = _init

class Context:
    def __init__(self, ctx):
        env = os.environ
        self.aws_request_id = ctx['requestId']
        self.invoked_function_arn = ctx['arn']
        self.function_name = env.get('AWS_LAMBDA_FUNCTION_NAME')
        self.function_version = env.get('AWS_LAMBDA_FUNCTION_VERSION')
        self.memory_limit_in_mb = env.get('AWS_LAMBDA_FUNCTION_MEMORY_SIZE')
        self.log_group_name = env.get('AWS_LAMBDA_LOG_GROUP_NAME')
        self.log_stream_name = env.get('AWS_LAMBDA_LOG_STREAM_NAME')
        self.client_context = ctx.get('clientContext')
        self.identity = None
        self._deadline = ctx['deadline']
    def get_remaining_time_in_millis(self):
        return max(0, int(self._deadline - time.time() * 1000))

def error(e, request_id, kind=None):
    return {'errorMessage': str(e), 'errorType': kind or type(e).__name__, 'requestId': request_id,
            'stackTrace': traceback.format_list(traceback.extract_tb(e.__traceback__))}

handler = None
init_error = None

def load():
    global handler, init_error
    name = os.environ.get('_HANDLER', '')
    module_name, _, function_name = name.rpartition('.')
    if not module_name:
        init_error = ('Runtime.MalformedHandlerName', "Bad handler '%s': not enough values to unpack (expected 2, got 1)" % name)
        return
    try:
        module = importlib.import_module(module_name.replace('/', '.'))
    except ImportError as e:
        init_error = ('Runtime.ImportModuleError', "Unable to import module '%s': %s" % (module_name, e))
        return
    except SyntaxError as e:
        init_error = ('Runtime.UserCodeSyntaxError', "Syntax error in module '%s': %s" % (module_name, e))
        return
    except Exception as e:
        init_error = (type(e).__name__, str(e))
        return
    handler = getattr(module, function_name, None)
    if handler is None:
        init_error = ('Runtime.HandlerNotFound', "Handler '%s' missing on module '%s'" % (function_name, module_name))

for line in sys.stdin:
    msg = json.loads(line)
    rid = msg['ctx']['requestId']
    if handler is None and init_error is None:
        load()
        if init_error is None:
            msg['ctx']['deadline'] = time.time() * 1000 + msg['ctx']['timeoutMs']
            out.write(json.dumps({'t': 'init', 'id': msg['id']}) + '\n')
            out.flush()
    if init_error is not None:
        out.write(json.dumps({'t': 'done', 'id': msg['id'], 'ok': False, 'error': {'errorMessage': init_error[1], 'errorType': init_error[0], 'requestId': rid, 'stackTrace': []}}) + '\n')
        sys.stdout.flush()
        os._exit(1)
    try:
        event = json.loads(msg['payload'] or 'null')
        result = handler(event, Context(msg['ctx']))
        answer = {'t': 'done', 'id': msg['id'], 'ok': True, 'payload': json.dumps(result)}
    except Exception as e:
        answer = {'t': 'done', 'id': msg['id'], 'ok': False, 'error': error(e, rid)}
    sys.stdout.flush()
    sys.stderr.flush()
    out.write(json.dumps(answer) + '\n')
`;
