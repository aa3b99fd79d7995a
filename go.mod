module github.com/gcfkit/gcf

go 1.26

require (
	github.com/alecthomas/participle/v2 v2.1.4
	github.com/valyala/bytebufferpool v1.0.0 // indirect
)
