module github.com/gcfkit/gcf/bench/savings

go 1.26.0

require github.com/gcfkit/gcf v0.0.0

require (
	github.com/dlclark/regexp2/v2 v2.5.1 // indirect
	github.com/tiktoken-go/tokenizer v0.10.0 // indirect
	github.com/valyala/bytebufferpool v1.0.0 // indirect
)

replace github.com/gcfkit/gcf => ../..
