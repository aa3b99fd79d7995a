module github.com/gcfkit/gcf

go 1.26

require github.com/valyala/bytebufferpool v1.0.0 // indirect
