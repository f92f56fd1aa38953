# Replaces the option block (the first ``` block) of each docs/cli/<cmd>.md with `perfmodel <cmd> --help`'s.
import subprocess, sys, re
bin_ = sys.argv[1]
for cmd in ['predict','list','info','convert','trace','sweep','roofline','calibrate','kernels','measure']:
    p = f'docs/cli/{cmd}.md'
    s = open(p).read()
    h = subprocess.run([bin_, cmd, '--help'], capture_output=True, text=True).stdout.split('\n')
    start = next(i for i, l in enumerate(h) if l in ('Positionals:', 'Options:'))
    oi = h.index('Options:')
    end = next(i for i in range(oi, len(h)) if h[i] == '')
    block = '\n'.join(h[start:end])
    a = s.index('```\n') + 4
    b = s.index('```', a)
    new = s[:a] + block + '\n' + s[b:]
    if new != s:
        open(p, 'w').write(new)
        print('updated', p)
