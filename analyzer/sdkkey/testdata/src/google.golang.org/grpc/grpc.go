// Package grpc stands in for grpc-go.
package grpc

type ServiceRegistrar interface{ RegisterService(desc any, impl any) }
