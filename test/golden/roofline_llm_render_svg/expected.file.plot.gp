set title 'roofline: llama-3-8b on h100, batch 8, fp16, prefill 2048 + decode at KV 4096'
keyentry with points pt 7 ps 1.5 lc rgb '#000000' title 'prefill (2048 tokens)'
keyentry with points pt 5 ps 1.5 lc rgb '#000000' title 'decode (one step at KV 4096)'
