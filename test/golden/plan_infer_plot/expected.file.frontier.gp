set xlabel 'TPOT, time per output token (s)'
set ylabel 'tokens/s per device'
title 'frontier (most tokens/s for its TPOT)'
