module github.com/gcfkit/gcf

go 1.26

require (
	github.com/alecthomas/participle/v2 v2.1.4
	github.com/tiktoken-go/tokenizer v0.10.0
	github.com/valyala/bytebufferpool v1.0.0
)

require github.com/dlclark/regexp2/v2 v2.5.1 // indirect
