// Package deps pins the project's chosen dependencies in go.mod until code imports them all.
package deps
import (
 _ "gopkg.in/yaml.v3"
 _ "github.com/urfave/cli/v2"
 _ "github.com/nikolalohinski/gonja/v2"
 _ "github.com/schollz/progressbar/v3"
 _ "modernc.org/sqlite"
 _ "github.com/parquet-go/parquet-go"
 _ "github.com/dlclark/regexp2"
)
