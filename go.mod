module github.com/gcfkit/gcf

go 1.26.0

require (
	github.com/alecthomas/participle/v2 v2.1.4
	github.com/tiktoken-go/tokenizer v0.10.0
	github.com/valyala/bytebufferpool v1.0.0
)

require (
	github.com/dlclark/regexp2/v2 v2.5.1 // indirect
	github.com/modelcontextprotocol/go-sdk v1.8.0 // indirect
	golang.org/x/tools v0.52.0 // indirect
)
